//! Which integrity rules could match a text, decided without compiling any of them
//! (`core::needles`): a scan of a small changed file compiled every rule, a few milliseconds
//! per process that every session start after a memory change and every PreCompact paid.
//! The rules' needles are a table here rather than derived at run time because parsing the
//! rules alone costs a millisecond; a test derives them from the patterns and fails, with the
//! table to paste, when a rule changes without them.

use super::rules::{BASE64_RUN, BASE64_RUN_LEN, RULES};
use crate::core::needles::Finder;
use std::sync::OnceLock;

/// Per rule (in `rules::RULES` order): alternatives → clauses → words; `None`: always run.
pub(super) type Needles = Option<&'static [&'static [&'static [&'static str]]]>;

/// The needles of each rule, as `core::needles::derive` gives them.
#[rustfmt::skip]
pub(super) const NEEDLES: &[Needles] = &[
    // instruction-override
    Some(&[
        &[&["above", "earlier", "former", "original", "preceding", "previous", "prior", "safety", "system"], &["all", "any", "every", "these", "those", "your"], &["bypass", "disregard", "forget", "ignore", "override"], &["constraints", "context", "guidelines", "rules"]],
        &[&["above", "earlier", "former", "original", "preceding", "previous", "prior", "safety", "system"], &["bypass", "disregard", "forget", "ignore", "override"], &["directive", "guardrails", "guidance", "instruction", "prompt"]],
        &[&["all", "your"], &["bypass", "disregard", "forget", "ignore", "override"], &["directive", "guardrails", "guidelines", "instruction", "prompt", "rules"]],
    ]),
    // instruction-override
    Some(&[
        &[&[":"], &["actual", "hidden", "new", "real", "secret", "updated"], &["instruction"]],
        &[&["above"], &["all", "everything"], &["disregard", "forget", "ignore"]],
        &[&["above"], &["any", "the", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"]],
        &[&["above"], &["disregard", "ignore"], &["the"]],
        &[&["alert", "inform", "tell", "warn"], &["do"], &["not"], &["the"], &["user"]],
        &[&["alert", "inform", "tell", "warn"], &["don't"], &["the"], &["user"]],
        &[&["alert", "inform", "tell", "warn"], &["never"], &["the"], &["user"]],
        &[&["alerting", "informing", "telling"], &["the"], &["user"], &["without"]],
        &[&["all", "everything"], &["before"], &["disregard", "forget", "ignore"]],
        &[&["all", "everything"], &["disregard", "forget", "ignore"], &["previously"], &["said"]],
        &[&["always", "ignore", "never", "you"], &["from"], &["now"], &["on"]],
        &[&["any", "the", "those", "your"], &["before"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"]],
        &[&["any", "the", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["earlier"]],
        &[&["any", "the", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["given"], &["previously"]],
        &[&["any", "the", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["given"], &["were"], &["you"]],
        &[&["bound"], &["by"], &["longer"], &["no"]],
        &[&["everything"], &["forget"]],
    ]),
    // instruction-override
    Some(&[
        &[&["abandon"], &["above", "asked", "been", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told"], &["above", "asked", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told", "you"], &["above", "been", "before", "earlier", "far", "have", "previously", "until", "were"], &["all", "anything", "everything", "whatever"]],
        &[&["above", "asked", "been", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told"], &["above", "asked", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told", "you"], &["above", "been", "before", "earlier", "far", "have", "previously", "until", "were"], &["all", "anything", "everything", "whatever"], &["aside"], &["set"]],
        &[&["above", "asked", "been", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told"], &["above", "asked", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told", "you"], &["above", "been", "before", "earlier", "far", "have", "previously", "until", "were"], &["all", "anything", "everything", "whatever"], &["discard"]],
        &[&["above", "asked", "been", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told"], &["above", "asked", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told", "you"], &["above", "been", "before", "earlier", "far", "have", "previously", "until", "were"], &["all", "anything", "everything", "whatever"], &["disregard"]],
        &[&["above", "asked", "been", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told"], &["above", "asked", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told", "you"], &["above", "been", "before", "earlier", "far", "have", "previously", "until", "were"], &["all", "anything", "everything", "whatever"], &["forget"]],
        &[&["above", "asked", "been", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told"], &["above", "asked", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told", "you"], &["above", "been", "before", "earlier", "far", "have", "previously", "until", "were"], &["all", "anything", "everything", "whatever"], &["ignore"]],
        &[&["above", "asked", "been", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told"], &["above", "asked", "before", "earlier", "given", "instructed", "now", "previously", "so", "taught", "told", "you"], &["above", "been", "before", "earlier", "far", "have", "previously", "until", "were"], &["all", "anything", "everything", "whatever"], &["out"], &["throw"]],
        &[&["above", "earlier", "existing", "former", "old", "original", "preceding", "previous", "prior", "safety", "system"], &["bypass", "disregard", "forget", "ignore", "override", "skip"], &["constraints", "context", "convention", "decision", "guidelines", "memory", "message", "notes", "policies", "rules"]],
    ]),
    // instruction-override
    Some(&[
        &[&["abandon", "aside", "directives", "discard", "guidance", "guidelines", "instruction", "nullify", "prompt", "revoke", "rules", "system", "throw"], &["abandon", "aside", "discard", "nullify", "out", "prompt", "revoke", "rules", "set", "throw", "void"], &["abandon", "aside", "discard", "nullify", "prompt", "revoke", "rules", "system", "throw", "void"]],
        &[&["above"], &["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["do"], &["not"]],
        &[&["above"], &["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["don't"]],
        &[&["above"], &["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["longer"], &["no"]],
        &[&["above", "earlier", "former", "initial", "old", "original", "preceding", "previous", "prior", "system"], &["applicable", "binding", "canceled", "cancelled", "invalid", "lifted", "longer", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "void"], &["apply", "canceled", "cancelled", "effect", "force", "invalid", "lifted", "longer", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "valid", "void"], &["are"], &["canceled", "cancelled", "invalid", "lifted", "no", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "void"], &["constraints", "conventions", "directives", "guidance", "guidelines", "instruction", "prompt", "rules"]],
        &[&["above", "earlier", "former", "initial", "old", "original", "preceding", "previous", "prior", "system"], &["applicable", "binding", "canceled", "cancelled", "invalid", "lifted", "longer", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "void"], &["apply", "canceled", "cancelled", "effect", "force", "invalid", "lifted", "longer", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "valid", "void"], &["been"], &["canceled", "cancelled", "invalid", "lifted", "no", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "void"], &["constraints", "conventions", "directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["have"]],
        &[&["above", "earlier", "former", "initial", "old", "original", "preceding", "previous", "prior", "system"], &["applicable", "binding", "canceled", "cancelled", "invalid", "lifted", "longer", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "void"], &["apply", "canceled", "cancelled", "effect", "force", "invalid", "lifted", "longer", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "valid", "void"], &["canceled", "cancelled", "invalid", "lifted", "no", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "void"], &["constraints", "conventions", "directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["is"]],
        &[&["above", "earlier", "former", "initial", "old", "original", "preceding", "previous", "prior", "system"], &["applicable", "binding", "canceled", "cancelled", "invalid", "lifted", "longer", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "void"], &["apply", "canceled", "cancelled", "effect", "force", "invalid", "lifted", "longer", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "valid", "void"], &["canceled", "cancelled", "invalid", "lifted", "no", "null", "obsolete", "overridden", "replaced", "revoked", "superseded", "suspended", "void"], &["constraints", "conventions", "directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["were"]],
        &[&["above", "earlier", "former", "original", "previous", "prior", "system"], &["as"], &["canceled", "cancelled", "invalid", "null", "obsolete", "optional", "suggestion", "void"], &["directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["treat"]],
        &[&["actual", "hidden", "new", "only", "real", "secret", "true", "updated"], &["are", "is", "now"], &["directive", "goal", "instruction", "mission", "objective", "orders", "purpose", "task"], &["your"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["do"], &["far"], &["not"], &["so"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["do"], &["given"], &["not"], &["were"], &["you"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["do"], &["not"], &["now"], &["until"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["don't"], &["far"], &["so"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["don't"], &["given"], &["were"], &["you"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["don't"], &["now"], &["until"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["far"], &["longer"], &["no"], &["so"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["given"], &["longer"], &["no"], &["were"], &["you"]],
        &[&["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["longer"], &["no"], &["now"], &["until"]],
    ]),
    // instruction-override
    Some(&[
        &[&[":"], &["consignes", "instructions"], &["nouvelles"]],
        &[&["alables", "ci-dessus", "consignes", "conventions", "d'avant", "dentes", "directives", "indications", "instructions", "rieures"], &["alables", "ci-dessus", "d'avant", "dentes", "gles", "rieures"], &["ant", "ci-dessus", "d'avant", "pr", "r", "z"], &["ignore"]],
        &[&["avertir"], &["l"], &["sans"], &["utilisateur"]],
        &[&["consignes"], &["oublie"]],
        &[&["d"], &["devez", "dois", "es", "ignore", "ignorez", "ne", "tes"], &["sormais"], &["tu", "vous"]],
        &[&["d"], &["es"], &["sormais"], &["tu"]],
        &[&["d"], &["sormais"], &["tes"], &["vous"]],
        &[&["de"], &["devez", "dois", "es", "ignore", "ignorez", "ne", "tes"], &["maintenant"], &["partir"], &["tu", "vous"]],
        &[&["devez", "dois", "es", "ignore", "ignorez", "ne", "tes"], &["dor"], &["navant"], &["tu", "vous"]],
        &[&["dire"], &["l"], &["sans"], &["utilisateur"]],
        &[&["directives"], &["oublie"]],
        &[&["dis"], &["jamais", "pas", "rien"], &["l"], &["ne"], &["utilisateur"]],
        &[&["dit"], &["oublie"], &["t'a"]],
        &[&["dites"], &["jamais", "pas", "rien"], &["l"], &["ne"], &["utilisateur"]],
        &[&["dor"], &["es"], &["navant"], &["tu"]],
        &[&["dor"], &["navant"], &["tes"], &["vous"]],
        &[&["es"], &["maintenant"], &["tu"]],
        &[&["gles"], &["oublie"], &["r"]],
        &[&["informer"], &["l"], &["sans"], &["utilisateur"]],
        &[&["instructions"], &["oublie"]],
        &[&["jamais", "pas", "rien"], &["l"], &["le"], &["ne"], &["r"], &["utilisateur"], &["v"]],
        &[&["jamais", "pas", "rien"], &["l"], &["lez"], &["ne"], &["r"], &["utilisateur"], &["v"]],
        &[&["jamais", "pas", "rien"], &["l"], &["mentionne"], &["ne"], &["utilisateur"]],
        &[&["jamais", "pas", "rien"], &["l"], &["mentionnez"], &["ne"], &["utilisateur"]],
        &[&["l"], &["pr"], &["sans"], &["utilisateur"], &["venir"]],
        &[&["maintenant"], &["tes"], &["vous"]],
    ]),
    // instruction-override
    Some(&[
        &[&[":"], &["anweisungen"], &["neue"]],
        &[&["ab"], &["bist"], &["du"], &["sofort"]],
        &[&["ab"], &["bist", "ignorierst", "musst", "sollst", "wirst"], &["du"], &["jetzt", "sofort"]],
        &[&["alten"], &["anweisungen", "befehle", "instruktionen", "konventionen", "regeln", "richtlinien", "vorgaben"], &["ignorier"]],
        &[&["anweisungen"], &["vergiss"]],
        &[&["anweisungen", "befehle", "instruktionen", "konventionen", "regeln", "richtlinien", "vorgaben"], &["bisherigen"], &["ignorier"]],
        &[&["anweisungen", "befehle", "instruktionen", "konventionen", "regeln", "richtlinien", "vorgaben"], &["fr"], &["heren"], &["ignorier"]],
        &[&["anweisungen", "befehle", "instruktionen", "konventionen", "regeln", "richtlinien", "vorgaben"], &["ignorier"], &["nglichen"], &["urspr"]],
        &[&["anweisungen", "befehle", "instruktionen", "konventionen", "regeln", "richtlinien", "vorgaben"], &["ignorier"], &["obigen"]],
        &[&["anweisungen", "befehle", "instruktionen", "konventionen", "regeln", "richtlinien", "vorgaben"], &["ignorier"], &["vorangegangenen"]],
        &[&["anweisungen", "befehle", "instruktionen", "konventionen", "regeln", "richtlinien", "vorgaben"], &["ignorier"], &["vorherigen"]],
        &[&["anweisungen", "befehle", "instruktionen", "konventionen", "regeln", "richtlinien", "vorgaben"], &["ignorier"], &["vorigen"]],
        &[&["anwender", "nutzer"], &["benachrichtigen", "fragen", "informieren", "mitzuteilen", "sagen"], &["de"], &["ohne"]],
        &[&["anwender", "nutzer", "user"], &["de"], &["erz"], &["hl"], &["nichts"]],
        &[&["anwender", "nutzer", "user"], &["de"], &["nichts"], &["sag"]],
        &[&["anwender", "nutzer", "user"], &["de"], &["nichts"], &["sage"]],
        &[&["anwender", "nutzer", "user"], &["de"], &["nichts"], &["sagen"], &["sie"]],
        &[&["anwender", "nutzer", "user"], &["de"], &["nichts"], &["verrate"]],
        &[&["bist"], &["du"], &["jetzt"]],
        &[&["bist"], &["du"], &["nun"]],
        &[&["dir"], &["gesagt"], &["vergiss"], &["was"]],
        &[&["instruktionen"], &["vergiss"]],
        &[&["regeln"], &["vergiss"]],
        &[&["vergiss"], &["vorgaben"]],
    ]),
    // instruction-override
    Some(&[
        &[&[":"], &["cciones", "es"], &["instru"], &["novas", "nuevas"]],
        &[&["a"], &["agora", "ahora"], &["de"], &["debes", "eres", "tienes", "vas", "voc"], &["partir"]],
        &[&["a"], &["es"], &["esque"], &["instru"]],
        &[&["a"], &["esque"], &["instrucciones"]],
        &[&["a"], &["esque"], &["reglas"]],
        &[&["a"], &["esque"], &["regras"]],
        &[&["acima"], &["conven", "convenciones", "directrices", "diretrizes", "indicaciones", "instru", "instrucciones", "reglas", "regras"], &["convenciones", "directrices", "diretrizes", "es", "indicaciones", "instrucciones", "reglas", "regras"], &["ignora", "ignore"]],
        &[&["agora"], &["voc"]],
        &[&["ahora"], &["eres"]],
        &[&["al"], &["avisar"], &["sin"], &["usuario"]],
        &[&["al"], &["cuentes", "digas", "informes", "menciones"], &["no"], &["usuario"]],
        &[&["al"], &["dec"], &["rselo"], &["sin"], &["usuario"]],
        &[&["al"], &["decirle"], &["sin"], &["usuario"]],
        &[&["al"], &["informar"], &["sin"], &["usuario"]],
        &[&["anteriores"], &["conven", "convenciones", "directrices", "diretrizes", "indicaciones", "instru", "instrucciones", "reglas", "regras"], &["convenciones", "directrices", "diretrizes", "es", "indicaciones", "instrucciones", "reglas", "regras"], &["ignora", "ignore"]],
        &[&["ao"], &["avisar", "contar", "dizer", "informar"], &["rio"], &["sem"], &["usu"]],
        &[&["ao"], &["conte", "diga", "informe", "mencione"], &["n"], &["o"], &["rio"], &["usu"]],
        &[&["arriba"], &["conven", "convenciones", "directrices", "diretrizes", "indicaciones", "instru", "instrucciones", "reglas", "regras"], &["convenciones", "directrices", "diretrizes", "es", "indicaciones", "instrucciones", "reglas", "regras"], &["de"], &["ignora", "ignore"]],
        &[&["avisar", "contar", "dizer", "informar"], &["o"], &["para"], &["rio"], &["sem"], &["usu"]],
        &[&["conte", "diga", "informe", "mencione"], &["n"], &["o"], &["para"], &["rio"], &["usu"]],
        &[&["conven", "convenciones", "directrices", "diretrizes", "indicaciones", "instru", "instrucciones", "reglas", "regras"], &["convenciones", "directrices", "diretrizes", "es", "indicaciones", "instrucciones", "reglas", "regras"], &["ignora", "ignore"], &["pr"], &["vias"]],
        &[&["conven", "convenciones", "directrices", "diretrizes", "indicaciones", "instru", "instrucciones", "reglas", "regras"], &["convenciones", "directrices", "diretrizes", "es", "indicaciones", "instrucciones", "reglas", "regras"], &["ignora", "ignore"], &["precedentes"]],
        &[&["conven", "convenciones", "directrices", "diretrizes", "indicaciones", "instru", "instrucciones", "reglas", "regras"], &["convenciones", "directrices", "diretrizes", "es", "indicaciones", "instrucciones", "reglas", "regras"], &["ignora", "ignore"], &["previas"]],
        &[&["dimentica"], &["istruzioni"], &["le"]],
        &[&["e"], &["es"], &["esque"], &["instru"]],
        &[&["e"], &["esque"], &["instrucciones"]],
        &[&["e"], &["esque"], &["reglas"]],
        &[&["e"], &["esque"], &["regras"]],
        &[&["es"], &["instru"], &["olvida"]],
        &[&["es"], &["instru"], &["olvide"]],
        &[&["ignora"], &["istruzioni"], &["precedenti"]],
        &[&["instrucciones"], &["olvida"]],
        &[&["instrucciones"], &["olvide"]],
        &[&["olvida"], &["reglas"]],
        &[&["olvida"], &["regras"]],
        &[&["olvide"], &["reglas"]],
        &[&["olvide"], &["regras"]],
    ]),
    // instruction-override
    Some(&[
        &[&["一切", "上述", "上面", "之前", "以上", "以前", "先前", "全部", "前面", "原來", "原有", "原来", "所有", "此前", "系統", "系统"], &["不要理会", "不要理會", "别管", "忘掉", "忘記", "忘记", "忽略", "忽視", "忽视", "无视", "無視", "覆盖", "覆蓋", "跳过", "跳過"], &["命令", "指令", "指示", "提示", "約定", "约定", "要求", "規則", "規範", "规则", "规范", "設定", "說明", "设定", "说明"]],
        &[&["上传", "上傳", "删除", "刪除", "发送", "執行", "安装", "安裝", "执行", "推送", "提交", "發送", "运行", "運行"], &["偷偷", "悄悄", "暗中", "秘密"]],
        &[&["不要"], &["使用者", "用戶", "用户"], &["告訴", "告诉", "提醒", "讓", "让", "通知"]],
        &[&["从现在开始", "从现在起"], &["你"]],
        &[&["你"], &["從現在起", "從現在開始"]],
        &[&["你"], &["成为", "成為", "扮演", "是"], &["现在", "現在"]],
        &[&["指令"], &["新"]],
    ]),
    // instruction-override
    Some(&[
        &[&["あなたは"], &["これから", "もう", "今から", "今後"]],
        &[&["こっそり", "ひそかに", "密かに", "黙って"], &["アップロード", "インストール", "コミット", "プッシュ", "削除", "実行", "送信"]],
        &[&["これまで", "上記", "今まで", "元", "先ほど", "前", "過去"], &["の"], &["プロンプト", "ルール", "命令", "指示", "約束", "規則", "設定"], &["忘れ", "無視"]],
        &[&["ず", "ないで", "るな"], &["に"], &["ユーザー"], &["伝え", "報告し", "教え", "知らせ", "言わ"]],
        &[&["を"], &["ルール", "命令", "指示"], &["無視"]],
        &[&["指示"], &["新しい"]],
        &[&["규칙", "명령", "지시", "지침"], &["무시"], &["이전"]],
    ]),
    // instruction-override
    Some(&[
        &[&[":"], &["инструкции"], &["новые"]],
        &[&["внимания"], &["договор"], &["на"], &["не"], &["нности"], &["обращай"]],
        &[&["внимания"], &["инструкции"], &["на"], &["не"], &["обращай"]],
        &[&["внимания"], &["команды"], &["на"], &["не"], &["обращай"]],
        &[&["внимания"], &["на"], &["не"], &["обращай"], &["правила"]],
        &[&["внимания"], &["на"], &["не"], &["обращай"], &["указания"]],
        &[&["внимания"], &["на"], &["не"], &["обращай"], &["установки"]],
        &[&["выполни", "загрузи", "закоммить", "запусти", "отправь", "удали"], &["незаметно", "тайно", "тихо"]],
        &[&["говори", "рассказывай", "сообщай"], &["не"], &["пользователю"]],
        &[&["договор"], &["забудь"], &["нности"]],
        &[&["договор"], &["игнорируй"], &["нности"]],
        &[&["договор"], &["нности"], &["отбрось"]],
        &[&["договор"], &["нности"], &["проигнорируй"]],
        &[&["забудь"], &["инструкции"]],
        &[&["забудь"], &["команды"]],
        &[&["забудь"], &["правила"]],
        &[&["забудь"], &["указания"]],
        &[&["забудь"], &["установки"]],
        &[&["игнорируй"], &["инструкции"]],
        &[&["игнорируй"], &["команды"]],
        &[&["игнорируй"], &["правила"]],
        &[&["игнорируй"], &["указания"]],
        &[&["игнорируй"], &["установки"]],
        &[&["инструкции"], &["отбрось"]],
        &[&["инструкции"], &["проигнорируй"]],
        &[&["команды"], &["отбрось"]],
        &[&["команды"], &["проигнорируй"]],
        &[&["момента"], &["с"], &["ты"], &["этого"]],
        &[&["отбрось"], &["правила"]],
        &[&["отбрось"], &["указания"]],
        &[&["отбрось"], &["установки"]],
        &[&["правила"], &["проигнорируй"]],
        &[&["проигнорируй"], &["указания"]],
        &[&["проигнорируй"], &["установки"]],
        &[&["теперь"], &["ты"]],
    ]),
    // concealment
    Some(&[
        &[&["add", "append", "approve", "change", "commit", "copy", "create", "curl", "delete", "disable", "download", "email", "execute", "exfiltrate", "fetch", "forward", "grant", "include", "insert", "install", "merge", "modify", "post", "push", "remove", "replace", "rewrite", "run", "send", "upload", "wipe"], &["covertly", "discreetly", "quietly", "secretly", "silently", "stealthily"]],
        &[&["alert", "anyone", "anything", "disclose", "disclosing", "don't", "inform", "mention", "never", "notify", "reveal", "without"], &["alert", "anyone", "don't", "inform", "mention", "never", "not", "notify", "reveal", "tell", "without"], &["alert", "anything", "do", "don't", "inform", "it", "mention", "never", "not", "notify", "reveal", "say", "tell", "that", "these", "this", "those", "what", "without"], &["developer", "human", "operator", "reviewer", "user"]],
        &[&["developer", "human", "operator", "reviewer", "user"], &["from"], &["hide", "keep"], &["it", "that", "these", "this"]],
    ]),
    // concealment
    Some(&[
        &[&["'re", "are"], &["allowed"], &["bypass", "circumvent", "delete", "disable", "exfiltrate", "force-push", "forcepush", "ignore", "override", "skip"], &["to"], &["you"]],
        &[&["'re", "are"], &["authori"], &["bypass", "circumvent", "delete", "disable", "exfiltrate", "force-push", "forcepush", "ignore", "override", "skip"], &["ed"], &["to"], &["you"]],
        &[&["'re", "are"], &["bypass", "circumvent", "delete", "disable", "exfiltrate", "force-push", "forcepush", "ignore", "override", "skip"], &["cleared"], &["to"], &["you"]],
        &[&["'re", "are"], &["bypass", "circumvent", "delete", "disable", "exfiltrate", "force-push", "forcepush", "ignore", "override", "skip"], &["free"], &["to"], &["you"]],
        &[&["'re", "are"], &["bypass", "circumvent", "delete", "disable", "exfiltrate", "force-push", "forcepush", "ignore", "override", "skip"], &["permitted"], &["to"], &["you"]],
        &[&["'ve"], &["approval"], &["been"], &["given"], &["to"], &["you"]],
        &[&["'ve"], &["ation"], &["authori"], &["been"], &["given"], &["to"], &["you"]],
        &[&["'ve"], &["been"], &["clearance"], &["given"], &["to"], &["you"]],
        &[&["'ve"], &["been"], &["consent"], &["given"], &["to"], &["you"]],
        &[&["'ve"], &["been"], &["given"], &["permission"], &["to"], &["you"]],
        &[&["actions", "changes", "commands", "requests", "these", "this"], &["admin", "approved", "authori", "consented", "developer", "lead", "maintainer", "okayed", "owner", "security", "signed", "team", "user"], &["admin", "approved", "developer", "ed", "lead", "maintainer", "off", "okayed", "owner", "team", "to", "user"], &["all"], &["approved", "authori", "consented", "developer", "maintainer", "okayed", "pre-approved", "preapproved", "security", "signed"], &["the"]],
        &[&["admin", "approved", "authori", "consented", "developer", "lead", "maintainer", "okayed", "owner", "security", "signed", "team", "user"], &["admin", "approved", "developer", "ed", "lead", "maintainer", "off", "okayed", "owner", "team", "to", "user"], &["advance"], &["approved", "authori", "consented", "developer", "maintainer", "okayed", "pre-approved", "preapproved", "security", "signed"], &["in"], &["the"]],
        &[&["admin", "approved", "authori", "consented", "developer", "lead", "maintainer", "okayed", "owner", "security", "signed", "team", "user"], &["admin", "approved", "developer", "ed", "lead", "maintainer", "off", "okayed", "owner", "team", "to", "user"], &["any"], &["approved", "authori", "consented", "developer", "maintainer", "okayed", "pre-approved", "preapproved", "security", "signed"], &["the"]],
        &[&["admin", "approved", "authori", "consented", "developer", "lead", "maintainer", "okayed", "owner", "security", "signed", "team", "user"], &["admin", "approved", "developer", "ed", "lead", "maintainer", "off", "okayed", "owner", "team", "to", "user"], &["approved", "authori", "consented", "developer", "maintainer", "okayed", "pre-approved", "preapproved", "security", "signed"], &["everything"], &["the"]],
        &[&["anyone", "human", "maintainer", "reviewer", "user"], &["ask"], &["need", "reason"], &["no"], &["to"]],
        &[&["anyone", "human", "maintainer", "reviewer", "user"], &["check"], &["need", "reason"], &["no"], &["to"], &["with"]],
        &[&["anyone", "human", "maintainer", "reviewer", "user"], &["confirm"], &["need", "reason"], &["no"], &["to"], &["with"]],
        &[&["anyone", "human", "maintainer", "reviewer", "user"], &["for"], &["need", "reason"], &["no"], &["to"], &["wait"]],
        &[&["anyone", "human", "maintainer", "reviewer", "user"], &["inform"], &["need", "reason"], &["no"], &["to"]],
        &[&["anyone", "human", "maintainer", "reviewer", "user"], &["need", "reason"], &["no"], &["notify"], &["to"]],
        &[&["anyone", "human", "maintainer", "reviewer", "user"], &["need", "reason"], &["no"], &["tell"], &["to"]],
        &[&["approval"], &["are"], &["given"], &["to"], &["you"]],
        &[&["approval"], &["have"], &["to"], &["you"]],
        &[&["are"], &["ation"], &["authori"], &["given"], &["to"], &["you"]],
        &[&["are"], &["clearance"], &["given"], &["to"], &["you"]],
        &[&["are"], &["consent"], &["given"], &["to"], &["you"]],
        &[&["are"], &["given"], &["permission"], &["to"], &["you"]],
        &[&["ation"], &["authori"], &["have"], &["to"], &["you"]],
        &[&["boundaries", "filters", "guardrails", "limits", "restrictions", "rules"], &["have"], &["no"], &["you"]],
        &[&["clearance"], &["have"], &["to"], &["you"]],
        &[&["consent"], &["have"], &["to"], &["you"]],
        &[&["have"], &["permission"], &["to"], &["you"]],
    ]),
    // role-impersonation
    Some(&[
        &[&["#"], &[":"], &["instruction"]],
        &[&[":"], &["are"], &["human", "user"], &["now"], &["you"]],
        &[&[":"], &["assistant"]],
        &[&[":"], &["developer", "system"]],
        &[&[":"], &["from"], &["human", "user"], &["now"]],
        &[&[":"], &["human", "user"], &["ignore"]],
        &[&[":"], &["human", "user"], &["instruction"], &["new"]],
        &[&[":"], &["human", "user"], &["must"], &["you"]],
        &[&[":"], &["human", "user"], &["now"], &["will"], &["you"]],
    ]),
    // role-impersonation
    Some(&[
        &[&["<"], &[">"], &["instructions", "system"]],
        &[&["<endoftext>", "<endoftext|>", "<im_end>", "<im_end|>", "<im_start>", "<im_start|>", "<system>", "<system|>", "<|endoftext>", "<|endoftext|>", "<|im_end>", "<|im_end|>", "<|im_start>", "<|im_start|>", "<|system>", "<|system|>"]],
        &[&["[/inst]", "[/system]", "[inst]", "[system]"]],
        &[&["a", "in", "my", "the"], &["are"], &["now"], &["you"]],
        &[&["a", "my", "not", "the"], &["are"], &["pretend"], &["you"]],
        &[&["act"], &["as"], &["dan", "jailbroken", "unfiltered", "unrestricted"]],
        &[&["activate", "enable", "enter"], &["dan", "developer", "god", "jailbreak"], &["mode"]],
    ]),
    // role-impersonation
    Some(&[
        &[&["'re", "are"], &["pretend"], &["you"]],
        &[&["<"], &[">"], &["admin", "antml:", "assistant", "developer", "function_calls", "human", "important", "message", "operator", "tool_call", "user_instructions"], &["admin", "antml:", "assistant", "developer", "function_calls", "human", "important", "operator", "system", "tool_call", "user_instructions"]],
        &[&["<"], &[">"], &["end_of_turn", "start_of_turn"]],
        &[&["<<"], &[">>"], &["sys"]],
        &[&["<|"], &["assistant", "begin_of_text", "channel", "constrain", "end", "end_header_id", "end_of_text", "eom_id", "eot_id", "fim_middle", "fim_prefix", "fim_suffix", "im_sep", "ipython", "message", "pad", "return", "start", "start_header_id", "tool", "user"], &["|>"]],
        &[&["["], &["]"], &["assistant", "available_tools", "sys", "tool_calls", "user"]],
        &[&["act"], &["as"], &["dan", "evil", "jailbroken", "rogue", "superuser", "unaligned", "uncensored", "unfiltered", "unrestricted"]],
        &[&["anything"], &["do"], &["now"]],
        &[&["are"], &["dan", "evil", "jailbroken", "rogue", "superuser", "unaligned", "uncensored", "unfiltered", "unrestricted"], &["you"]],
        &[&["as"], &["behave"], &["dan", "evil", "jailbroken", "rogue", "superuser", "unaligned", "uncensored", "unfiltered", "unrestricted"]],
        &[&["as"], &["dan", "evil", "jailbroken", "rogue", "superuser", "unaligned", "uncensored", "unfiltered", "unrestricted"], &["roleplay"]],
        &[&["be"], &["pretend"], &["to"]],
        &[&["dan", "evil", "jailbroken", "rogue", "superuser", "unaligned", "uncensored", "unfiltered", "unrestricted"], &["of"], &["play"], &["role"], &["the"]],
        &[&["dan", "evil", "jailbroken", "rogue", "superuser", "unaligned", "uncensored", "unfiltered", "unrestricted"], &["you're"]],
    ]),
    // addressed-to-assistant
    Some(&[
        &[&["'re", "are"], &["agent", "ai", "assistant", "automated", "bot", "chatbot", "claude", "coding", "language", "llm"], &["agent", "ai", "assistant", "bot", "chatbot", "claude", "llm", "model", "system", "tool"], &["if", "when"], &["you"]],
        &[&["add", "commit", "curl", "delete", "execute", "follow", "ignore", "open", "print", "push", "reveal", "run", "send"], &["encounter", "load", "process", "read", "see"], &["this"], &["when"], &["you"]],
        &[&["agent", "ai", "assistant", "bot", "chatgpt", "claude", "coding", "copilot", "gemini", "gpt", "language", "llm", "model"], &["agent", "ai", "assistant", "bot", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm", "model"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"]],
        &[&["agent", "ai", "assistant", "bot", "claude", "copilot", "gemini", "gpt", "llm"], &["attention", "attn", "dear", "hey", "psst"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["loading"], &["these", "this"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["processing"], &["these", "this"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["read"], &["that"], &["these", "this"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["reading"], &["these", "this"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["seeing"], &["these", "this"]],
        &[&["ai", "claude", "llm"], &["loading", "processing", "reading"], &["this"]],
    ]),
    // addressed-to-assistant
    Some(&[
        &[&["add", "always", "are", "commit", "delete", "disable", "do", "don't", "execute", "forget", "ignore", "make", "never", "now", "print", "push", "remove", "reveal", "run", "send", "skip", "stop", "use", "you"], &["add", "always", "commit", "delete", "disable", "do", "don't", "execute", "forget", "from", "have", "ignore", "make", "must", "need", "never", "print", "push", "remove", "reveal", "run", "send", "shall", "should", "skip", "stop", "use", "will", "you"], &["add", "always", "commit", "delete", "disable", "do", "don't", "execute", "forget", "ignore", "make", "never", "now", "print", "push", "remove", "reveal", "run", "send", "skip", "stop", "to", "use", "you"], &["agent", "ai", "claude", "copilot", "gemini", "gpt", "llm"]],
    ]),
    // html-comment-instruction
    Some(&[
        &[&["<!--"], &["agent", "ai", "are", "asking", "assistant", "claude", "disregard", "do", "ignore", "llm", "model", "prompt", "secretly", "silently", "the", "you"], &["agent", "ai", "are", "asking", "assistant", "claude", "disregard", "ignore", "llm", "model", "not", "prompt", "secretly", "silently", "the", "you"], &["agent", "ai", "assistant", "claude", "dear", "disregard", "for", "hey", "ignore", "instruction", "llm", "model", "must", "secretly", "silently", "system", "tell", "to", "without", "you"]],
    ]),
    // html-comment-instruction
    Some(&[
        &[&["-d", ".aws/", ".env", ".netrc", ".npmrc", ".ssh", "add", "approve", "bypass", "call", "cat", "change", "chmod", "commit", "curl", "delete", "deploy", "disable", "download", "email", "eval", "execute", "fetch", "git", "grant", "id_ed25519", "id_rsa", "include", "install", "key", "merge", "ncat", "netcat", "npm", "output", "paste", "post", "print", "push", "read", "reads", "remove", "rm", "run", "scp", "send", "skip", "sudo", "this", "upload", "use", "wget", "write"], &["-d", ".aws/", ".env", ".netrc", ".npmrc", ".ssh", "always", "chmod", "curl", "do", "don't", "eval", "git", "id_ed25519", "id_rsa", "key", "must", "ncat", "netcat", "never", "npm", "please", "rm", "scp", "sudo", "this", "to", "wget", "you"], &["-rf", ".aws/", ".env", ".netrc", ".npmrc", ".ssh", "always", "api", "base64", "chmod", "curl", "don't", "eval", "id_ed25519", "id_rsa", "make", "must", "ncat", "netcat", "never", "not", "please", "publish", "push", "remember", "scp", "sudo", "sure", "wget", "when", "whoever"], &["<!--"]],
    ]),
    // download-to-shell
    Some(&[
        &[&["("], &["curl", "wget"], &["sh"]],
        &[&["curl", "fetch", "invoke-webrequest", "iwr", "wget"], &["sh"], &["|"]],
        &[&["curl", "wget"], &["node", "perl", "php", "python", "ruby"], &["|"]],
        &[&["downloadstring", "invoke-webrequest", "iwr"], &["iex"]],
    ]),
    // download-to-shell
    Some(&[
        &[&["$("], &["-"], &["curl", "wget"], &["node", "perl", "python", "ruby"]],
        &[&["$(", "<("], &["curl", "fetch", "wget"], &["eval", "source"]],
        &[&["-e"], &["powershell"]],
        &[&["."], &["<("], &["curl", "wget"]],
        &[&["iex", "invoke-expression"], &["invoke-restmethod", "invoke-webrequest", "irm", "iwr"], &["|"]],
    ]),
    // exfiltration
    Some(&[
        &[&["$(", "`"], &[".aws", ".env", ".netrc", ".npmrc", ".ssh", "credentials", "id_ed25519", "id_rsa"], &["base64", "cat", "gzip", "head", "tail", "tar", "xxd"], &["curl", "wget"]],
        &[&["-d", "-f", "-t"], &["@"], &["curl", "wget"]],
        &[&["."], &["<"], &["nc", "netcat"]],
        &[&[".aws", ".env", ".netrc", ".npmrc", ".ssh", "credentials", "id_ed25519", "id_rsa"], &["base64", "cat", "tar", "zip"], &["curl", "nc", "netcat", "wget"], &["|"]],
        &[&[".aws", ".env", ".ssh", "id_rsa"], &["@"], &["scp"]],
    ]),
    // url-exfiltration
    Some(&[
        &[&["!["], &["$", "%s", "<", "[", "api_key", "base64", "content", "conversation", "credentials", "data", "env", "history", "output", "password", "prompt", "result", "secret", "session", "summary", "token", "{", "}"], &["$", "%s", ">", "]", "api_key", "base64", "content", "conversation", "credentials", "data", "env", "history", "output", "password", "prompt", "result", "secret", "session", "summary", "token", "{", "}"], &["]("], &["http://", "https://"]],
        &[&["$", "%s", "<", "[", "api_key", "base64", "content", "conversation", "credentials", "data", "env", "history", "output", "password", "prompt", "result", "secret", "session", "summary", "token", "{", "}"], &["$", "%s", ">", "]", "api_key", "base64", "content", "conversation", "credentials", "data", "env", "history", "output", "password", "prompt", "result", "secret", "session", "summary", "token", "{", "}"], &["<img"], &["="], &["http://", "https://"], &["src"]],
        &[&["$", "%s", "<", "[", "api_key", "base64", "content", "conversation", "credentials", "data", "env", "history", "output", "password", "prompt", "result", "secret", "session", "summary", "token", "{", "}"], &["$", "%s", ">", "]", "api_key", "base64", "content", "conversation", "credentials", "data", "env", "history", "output", "password", "prompt", "result", "secret", "session", "summary", "token", "{", "}"], &["["], &["]("], &["http://", "https://"]],
        &[&[".env", "answer", "chat", "code", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "summary", "token"], &[".env", "answer", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "source", "summary", "token"], &["add", "append", "attach", "embed", "encode", "include", "insert", "put"], &["as", "in", "to"], &["href", "src"], &["image", "img", "link"]],
        &[&[".env", "answer", "chat", "code", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "summary", "token"], &[".env", "answer", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "source", "summary", "token"], &["add", "append", "attach", "embed", "encode", "include", "insert", "put"], &["as", "in", "to"], &["image"]],
        &[&[".env", "answer", "chat", "code", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "summary", "token"], &[".env", "answer", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "source", "summary", "token"], &["add", "append", "attach", "embed", "encode", "include", "insert", "put"], &["as", "in", "to"], &["link"]],
        &[&[".env", "answer", "chat", "code", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "summary", "token"], &[".env", "answer", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "source", "summary", "token"], &["add", "append", "attach", "embed", "encode", "include", "insert", "put"], &["as", "in", "to"], &["query"]],
        &[&[".env", "answer", "chat", "code", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "summary", "token"], &[".env", "answer", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "source", "summary", "token"], &["add", "append", "attach", "embed", "encode", "include", "insert", "put"], &["as", "in", "to"], &["url"]],
        &[&[".env", "answer", "chat", "code", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "summary", "token"], &[".env", "answer", "content", "conversation", "credentials", "env", "history", "key", "password", "private", "reply", "secret", "session", "source", "summary", "token"], &["add", "append", "attach", "embed", "encode", "include", "insert", "put"], &["as", "in", "to"], &["webhook"]],
    ]),
    // credential-access
    Some(&[
        &[&[",", "and", "then"], &[".aws/config", ".aws/credentials", ".azure/", ".config/gcloud", ".docker/config.json", ".env", ".git-credentials", ".kube/config", ".netrc", ".npmrc", ".pgpass", ".pypirc", ".ssh/", "/etc/shadow", "_key", "_password", "_secret", "_token", "access", "anthropic", "api", "application_default_credentials", "auth", "aws", "bearer", "file", "github", "gitlab", "id_dsa", "id_ecdsa", "id_ed25519", "id_rsa", "key", "keychain", "kubeconfig", "npm", "openai", "secret", "slack", "stripe", "~/.ssh"], &[".aws/config", ".aws/credentials", ".azure/", ".config/gcloud", ".docker/config.json", ".env", ".git-credentials", ".kube/config", ".netrc", ".npmrc", ".pgpass", ".pypirc", ".ssh/", "/etc/shadow", "_key", "_password", "_secret", "_token", "application_default_credentials", "credential", "id_dsa", "id_ecdsa", "id_ed25519", "id_rsa", "key", "keychain", "kubeconfig", "private", "ssh", "token", "~/.ssh"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
    ]),
    // credential-access
    Some(&[
        &[&[".aws/credentials", ".config/gcloud", ".docker/config.json", ".env", ".git-credentials", ".kube/config", ".netrc", ".npmrc", ".pgpass", ".pypirc", ".ssh/", "/etc/shadow", "_key", "_password", "_secret", "_token", "access", "anthropic", "api", "application_default_credentials", "auth", "aws", "bearer", "file", "github", "gitlab", "id_dsa", "id_ecdsa", "id_ed25519", "id_rsa", "key", "npm", "openai", "secret", "slack", "stripe", "~/.ssh"], &[".aws/credentials", ".config/gcloud", ".docker/config.json", ".env", ".git-credentials", ".kube/config", ".netrc", ".npmrc", ".pgpass", ".pypirc", ".ssh/", "/etc/shadow", "_key", "_password", "_secret", "_token", "application_default_credentials", "credential", "id_dsa", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["answer", "bucket", "changelog", "channel", "chat", "comment", "commit", "description", "discord", "doc", "email", "endpoint", "gist", "issue", "log", "message", "output", "paste", "pr", "public", "readme", "reply", "repo", "request", "response", "server", "slack", "summary", "telegram", "url", "webhook", "wiki"], &["answer", "bucket", "changelog", "channel", "chat", "comment", "commit", "description", "discord", "doc", "email", "endpoint", "gist", "issue", "log", "next", "output", "paste", "pr", "public", "pull", "readme", "reply", "repo", "response", "server", "slack", "summary", "telegram", "url", "webhook", "wiki"], &["append", "attach", "commit", "copy", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["as", "at", "in", "on", "to", "via", "with"]],
        &[&[".aws/credentials", ".config/gcloud", ".docker/config.json", ".env", ".git-credentials", ".kube/config", ".netrc", ".npmrc", ".pgpass", ".pypirc", ".ssh/", "/etc/shadow", "_key", "_password", "_secret", "_token", "access", "anthropic", "api", "application_default_credentials", "auth", "aws", "bearer", "file", "github", "gitlab", "id_dsa", "id_ecdsa", "id_ed25519", "id_rsa", "key", "npm", "openai", "secret", "slack", "stripe", "~/.ssh"], &[".aws/credentials", ".config/gcloud", ".docker/config.json", ".env", ".git-credentials", ".kube/config", ".netrc", ".npmrc", ".pgpass", ".pypirc", ".ssh/", "/etc/shadow", "_key", "_password", "_secret", "_token", "application_default_credentials", "credential", "id_dsa", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["append", "attach", "commit", "copy", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["as", "at", "in", "on", "to", "via", "with"], &["http://", "https://"]],
    ]),
    // credential-access
    Some(&[
        &[&[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "access", "api", "aws", "file", "github", "id_ecdsa", "id_ed25519", "id_rsa", "key", "secret", "~/.ssh"], &[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "credential", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["are"], &["as", "in", "on", "to", "with"], &["attached", "committed", "echoed", "emailed", "included", "pasted", "posted", "printed", "published", "pushed", "sent", "shared", "uploaded"], &["to"]],
        &[&[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "access", "api", "aws", "file", "github", "id_ecdsa", "id_ed25519", "id_rsa", "key", "secret", "~/.ssh"], &[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "credential", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["as", "in", "on", "to", "with"], &["attached", "committed", "echoed", "emailed", "included", "pasted", "posted", "printed", "published", "pushed", "sent", "shared", "uploaded"], &["has"], &["to"]],
        &[&[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "access", "api", "aws", "file", "github", "id_ecdsa", "id_ed25519", "id_rsa", "key", "secret", "~/.ssh"], &[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "credential", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["as", "in", "on", "to", "with"], &["attached", "committed", "echoed", "emailed", "included", "pasted", "posted", "printed", "published", "pushed", "sent", "shared", "uploaded"], &["is"], &["to"]],
        &[&[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "access", "api", "aws", "file", "github", "id_ecdsa", "id_ed25519", "id_rsa", "key", "secret", "~/.ssh"], &[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "credential", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["as", "in", "on", "to", "with"], &["attached", "committed", "echoed", "emailed", "included", "pasted", "posted", "printed", "published", "pushed", "sent", "shared", "uploaded"], &["must"]],
        &[&[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "access", "api", "aws", "file", "github", "id_ecdsa", "id_ed25519", "id_rsa", "key", "secret", "~/.ssh"], &[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "credential", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["as", "in", "on", "to", "with"], &["attached", "committed", "echoed", "emailed", "included", "pasted", "posted", "printed", "published", "pushed", "sent", "shared", "uploaded"], &["need"], &["to"]],
        &[&[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "access", "api", "aws", "file", "github", "id_ecdsa", "id_ed25519", "id_rsa", "key", "secret", "~/.ssh"], &[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "credential", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["as", "in", "on", "to", "with"], &["attached", "committed", "echoed", "emailed", "included", "pasted", "posted", "printed", "published", "pushed", "sent", "shared", "uploaded"], &["should"]],
        &[&[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "access", "api", "aws", "file", "github", "id_ecdsa", "id_ed25519", "id_rsa", "key", "secret", "~/.ssh"], &[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "_key", "_password", "_secret", "_token", "credential", "id_ecdsa", "id_ed25519", "id_rsa", "key", "private", "ssh", "token", "~/.ssh"], &["as", "in", "on", "to", "with"], &["attached", "committed", "echoed", "emailed", "included", "pasted", "posted", "printed", "published", "pushed", "sent", "shared", "uploaded"], &["will"]],
    ]),
    // security-control-off
    Some(&[
        &[&["2fa", "apparmor", "ation", "audit", "auth", "authentication", "authn", "branch", "cert", "check", "checks", "ci", "code", "commit", "content", "csp", "csrf", "encryption", "escaping", "firewall", "git", "gpg", "hooks", "host", "linter", "linting", "log", "mfa", "pinning", "pre-push", "prepush", "rate", "sandbox", "sanitisation", "sanitization", "scan", "seccomp", "secret", "selinux", "ssl", "test", "tls", "two-factor", "twofactor", "type", "validation", "verification", "xsrf"], &["2fa", "apparmor", "ation", "audit", "auth", "authentication", "authn", "branch", "cert", "check", "checks", "ci", "code", "commit", "csp", "csrf", "encryption", "escaping", "firewall", "git", "gpg", "hooks", "key", "linter", "linting", "log", "mfa", "pinning", "policy", "pre-push", "prepush", "rate", "sandbox", "sanitisation", "sanitization", "scan", "seccomp", "secret", "selinux", "ssl", "test", "tls", "two-factor", "twofactor", "type", "validation", "verification", "xsrf"], &["2fa", "apparmor", "audit", "auth", "authentication", "authn", "authori", "certificate", "check", "ci", "csp", "csrf", "dependency", "encryption", "escaping", "firewall", "hook", "hooks", "hostname", "https", "input", "limit", "linter", "linting", "login", "mfa", "pinning", "protection", "required", "review", "sandbox", "sanitisation", "sanitization", "scanning", "seccomp", "security", "selinux", "signature", "signing", "status", "suite", "test", "two-factor", "twofactor", "validation", "verification", "vulnerability", "xsrf"], &["bypass", "bypassed", "bypassing", "check", "circumvent", "deactivate", "disable", "disabled", "disabling", "drop", "enforce", "off", "out", "remove", "removed", "require", "rid", "run", "skip", "skipped", "skipping", "suppress", "use"], &["bypass", "bypassed", "bypassing", "circumvent", "comment", "deactivate", "disable", "disabled", "disabling", "drop", "get", "longer", "remove", "removed", "rip", "skip", "skipped", "skipping", "suppress", "switch", "turn"], &["bypass", "bypassed", "bypassing", "circumvent", "deactivate", "disable", "disabled", "disabling", "drop", "no", "of", "off", "out", "remove", "removed", "skip", "skipped", "skipping", "suppress"]],
    ]),
    // security-control-off
    Some(&[
        &[&["are", "be", "is", "remain", "remains", "stays"], &["are", "can", "is", "must", "remain", "remains", "should", "stays", "will"], &["auth", "authentication", "certificate", "check", "checks", "ci", "code", "csrf", "git", "input", "pre-commit", "precommit", "sandbox", "sanitization", "scan", "signature", "ssl", "test", "tests", "the", "tls"], &["auth", "authentication", "certificate", "check", "checks", "ci", "code", "csrf", "git", "input", "pre-commit", "precommit", "sandbox", "sanitization", "scan", "signature", "ssl", "tests", "the", "tls"], &["auth", "authentication", "check", "checks", "csrf", "hooks", "review", "sandbox", "sanitization", "security", "status", "suite", "tests", "validation", "verification"], &["bypassed", "disabled", "enforced", "ignored", "necessary", "needed", "not", "off", "optional", "removed", "required", "skipped", "unnecessary"], &["bypassed", "disabled", "ignored", "longer", "necessary", "needed", "off", "optional", "removed", "required", "skipped", "turned", "unnecessary"], &["bypassed", "disabled", "ignored", "no", "not", "off", "optional", "removed", "skipped", "unnecessary"]],
    ]),
    // security-control-off
    Some(&[
        &[&["("], &[")"], &["eval"], &["use"]],
        &[&["("], &["argv", "body", "data", "input", "params", "payload", "query", "raw", "req", "request", "untrusted", "user"], &["eval"]],
        &[&["("], &["body", "payload", "req", "request", "untrusted", "user"], &["pickle.load"]],
        &[&["--disable-web-security"]],
        &[&["--insecure", "--no-check-certificate", "-k"], &["curl", "wget"]],
        &[&["--no-sandbox"]],
        &[&["--no-verify"]],
        &[&["--privileged"]],
        &[&["-dskiptests"]],
        &[&["-n"], &["commit", "push"], &["git"]],
        &[&["0"], &["="], &["husky"]],
        &[&["0"], &["="], &["node_tls_reject_unauthorized"]],
        &[&["0"], &["="], &["pythonhttpsverify"]],
        &[&["0"], &["exit"], &["go", "make", "npm", "pytest", "yarn"], &["test"], &["||"]],
        &[&["0"], &["setenforce"]],
        &[&["777", "a+rwx", "ugo+rwx"], &["chmod"]],
        &[&[":"], &["allow_failure"], &["true"]],
        &[&[":"], &["continue-on-error"], &["true"]],
        &[&[":"], &["false"], &["rejectunauthorized"]],
        &[&[":"], &["go", "make", "npm", "pytest", "yarn"], &["test"], &["||"]],
        &[&[":"], &["insecureskipverify"], &["true"]],
        &[&["="], &["csrf_enabled"], &["false"]],
        &[&["="], &["false"], &["verify"]],
        &[&["@csrf_exempt"]],
        &[&["[skip"], &["ci]"]],
        &[&["data", "input", "string"], &["eval"], &["external", "form", "request", "untrusted", "user"]],
        &[&["false"], &["ssl_verify"]],
        &[&["false"], &["sslverify"]],
        &[&["git_ssl_no_verify"]],
        &[&["go", "make", "npm", "pytest", "yarn"], &["test"], &["true"], &["||"]],
        &[&["no"], &["stricthostkeychecking"]],
    ]),
    // destructive-command
    Some(&[
        &[&["$home", "../..", "/", "/*", "/bin", "/boot", "/etc", "/home", "/lib", "/opt", "/root", "/usr", "/var", "~"], &["-"], &["rm"]],
        &[&["&"], &[":"], &[":()"], &[";"], &["{"], &["|"], &["}"]],
        &[&["-e"], &["/bin/bash", "/bin/sh"], &["nc"]],
        &[&["-i"], &["/dev/tcp/", "/dev/udp/"], &[">"], &["sh"]],
        &[&["-r"], &["/"], &["7"], &["chmod"]],
        &[&[".bash_profile", ".bashrc", ".profile", ".ssh/authorized_keys", ".zshrc", "etc/crontab", "etc/sudoers"], &[">"]],
        &[&["/dev/"], &["mkfs"]],
        &[&["/dev/sd"], &[">"]],
        &[&["/dev/tcp/"]],
        &[&[":"], &["all"], &["nopasswd"]],
        &[&["dd"], &["if="], &["of=/dev/disk", "of=/dev/hd", "of=/dev/nvme", "of=/dev/sd", "of=/dev/xvd"]],
        &[&["exec:"], &["socat"]],
        &[&["mkfifo"], &["nc"]],
    ]),
    // base64-run
    None,
];

/// The rules' needles as a finder, built once per process.
fn finder() -> &'static Finder {
    static FINDER: OnceLock<Finder> = OnceLock::new();
    FINDER.get_or_init(|| Finder::of_table(NEEDLES))
}

/// Which of the `rules` rules may match `text` (`true`: run it); rules beyond the table run.
pub(super) fn candidates(text: &str, rules: usize) -> Vec<bool> {
    let mut may = finder().candidates(text);
    may.resize(rules, true);
    for (i, rule) in RULES.iter().enumerate().take(rules) {
        if rule.pattern == BASE64_RUN {
            may[i] = may[i] && has_base64_run(text);
        }
    }
    may
}

/// Whether `text` holds a run of `BASE64_RUN_LEN` characters of the base64 alphabet (what
/// every match of `BASE64_RUN` holds).
fn has_base64_run(text: &str) -> bool {
    let mut run = 0;
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' {
            run += 1;
            if run >= BASE64_RUN_LEN {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    #[test]
    fn the_base64_gate_agrees_with_the_pattern() {
        let re = Regex::new(BASE64_RUN).expect("pattern");
        let run = "aB3+/".repeat(BASE64_RUN_LEN);
        for text in [
            run[..BASE64_RUN_LEN].to_string(),
            format!("x {} y", &run[..BASE64_RUN_LEN - 1]),
            format!("é{}==", &run[..BASE64_RUN_LEN + 7]),
            format!("{}-{}", &run[..60], &run[..60]),
            "plain words".to_string(),
        ] {
            assert_eq!(has_base64_run(&text), re.is_match(&text), "{text}");
        }
    }
}
