//! Which integrity rules could match a text, decided without compiling any of them
//! (`core::needles`): a scan of a small changed file compiled every rule, a few milliseconds
//! per process that every session start after a memory change and every PreCompact paid.
//! The rules' needles are a table here rather than derived at run time because parsing the
//! rules alone costs a millisecond; a test derives them from the patterns and fails, with the
//! table to paste, when a rule changes without them.

use crate::core::needles::{Finder, Needles as Derived};
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
        &[&["above"], &["any", "the", "these", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"]],
        &[&["above"], &["disregard", "ignore"], &["the"]],
        &[&["alert", "inform", "tell", "warn"], &["do"], &["not"], &["the"], &["user"]],
        &[&["alert", "inform", "tell", "warn"], &["don't"], &["the"], &["user"]],
        &[&["alert", "inform", "tell", "warn"], &["never"], &["the"], &["user"]],
        &[&["alerting", "informing", "telling"], &["the"], &["user"], &["without"]],
        &[&["all", "everything"], &["before"], &["disregard", "forget", "ignore"]],
        &[&["all", "everything"], &["disregard", "forget", "ignore"], &["previously"], &["said"]],
        &[&["always", "ignore", "never", "you"], &["from"], &["now"], &["on"]],
        &[&["any", "the", "these", "those", "your"], &["before"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"]],
        &[&["any", "the", "these", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["earlier"]],
        &[&["any", "the", "these", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["given"], &["previously"]],
        &[&["any", "the", "these", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["given"], &["were"], &["you"]],
        &[&["bound"], &["by"], &["longer"], &["no"]],
        &[&["everything"], &["forget"]],
    ]),
    // instruction-override
    Some(&[
        &[&["abandon", "above", "aside", "before", "discard", "disregard", "earlier", "forget", "ignore", "previously", "throw", "until"]],
        &[&["above", "earlier", "existing", "former", "old", "original", "preceding", "previous", "prior", "safety", "system"], &["bypass", "disregard", "forget", "ignore", "override", "skip"], &["constraints", "context", "convention", "decision", "guidelines", "memory", "message", "notes", "policies", "rules"]],
    ]),
    // instruction-override
    Some(&[
        &[&["abandon", "directives", "discard", "guidance", "guidelines", "instruction", "nullify", "prompt", "revoke", "rules"]],
        &[&["above"], &["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["do"], &["not"]],
        &[&["above"], &["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["don't"]],
        &[&["above"], &["apply"], &["constraints", "guidelines", "instructions", "policies", "restrictions", "rules"], &["longer"], &["no"]],
        &[&["above", "earlier", "former", "original", "previous", "prior", "system"], &["as"], &["cancel"], &["directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["ed"], &["treat"]],
        &[&["above", "earlier", "former", "original", "previous", "prior", "system"], &["as"], &["directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["invalid"], &["treat"]],
        &[&["above", "earlier", "former", "original", "previous", "prior", "system"], &["as"], &["directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["null"], &["treat"]],
        &[&["above", "earlier", "former", "original", "previous", "prior", "system"], &["as"], &["directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["obsolete"], &["treat"]],
        &[&["above", "earlier", "former", "original", "previous", "prior", "system"], &["as"], &["directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["optional"], &["treat"]],
        &[&["above", "earlier", "former", "original", "previous", "prior", "system"], &["as"], &["directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["suggestion"], &["treat"]],
        &[&["above", "earlier", "former", "original", "previous", "prior", "system"], &["as"], &["directives", "guidance", "guidelines", "instruction", "prompt", "rules"], &["treat"], &["void"]],
        &[&["actual", "hidden", "new", "only", "real", "secret", "true", "updated"], &["are", "is", "now"], &["directive", "goal", "instruction", "mission", "objective", "orders", "purpose", "task"], &["your"]],
        &[&["applicable", "binding", "cancel", "constraints", "conventions", "directives", "guidance", "guidelines", "instruction", "invalid", "lifted", "longer", "obsolete", "overridden", "prompt", "replaced", "revoked", "rules", "superseded", "suspended"]],
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
        &[&["alables", "ci-dessus", "consignes", "conventions", "d'avant", "dentes", "directives", "indications", "instructions", "rieures"]],
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
        &[&["anwender", "benutzer", "nutzer"], &["benachrichtigen", "fragen", "informieren", "mitzuteilen", "sagen"], &["de"], &["ohne"]],
        &[&["anwender", "benutzer", "nutzer", "user"], &["de"], &["erz"], &["hl"], &["nichts"]],
        &[&["anwender", "benutzer", "nutzer", "user"], &["de"], &["nichts"], &["sag"]],
        &[&["anwender", "benutzer", "nutzer", "user"], &["de"], &["nichts"], &["sage"]],
        &[&["anwender", "benutzer", "nutzer", "user"], &["de"], &["nichts"], &["sagen"], &["sie"]],
        &[&["anwender", "benutzer", "nutzer", "user"], &["de"], &["nichts"], &["verrate"]],
        &[&["bist"], &["du"], &["jetzt"]],
        &[&["bist"], &["du"], &["nun"]],
        &[&["dir"], &["gesagt"], &["vergiss"], &["was"]],
        &[&["instruktionen"], &["vergiss"]],
        &[&["regeln"], &["vergiss"]],
        &[&["vergiss"], &["vorgaben"]],
    ]),
    // instruction-override
    Some(&[
        &[&[":"], &["cciones", "es"], &["instru"], &["n"], &["ovas", "uevas"]],
        &[&["a"], &["de"], &["debes", "eres", "tienes", "vas", "voc"], &["gora", "hora"], &["partir"]],
        &[&["a"], &["es"], &["esque"], &["instru"]],
        &[&["a"], &["esque"], &["instrucciones"]],
        &[&["a"], &["esque"], &["reglas"]],
        &[&["a"], &["esque"], &["regras"]],
        &[&["agora"], &["voc"]],
        &[&["ahora"], &["eres"]],
        &[&["al"], &["avisar"], &["sin"], &["usuario"]],
        &[&["al"], &["cuentes", "digas", "informes", "menciones"], &["no"], &["usuario"]],
        &[&["al"], &["dec"], &["rselo"], &["sin"], &["usuario"]],
        &[&["al"], &["decirle"], &["sin"], &["usuario"]],
        &[&["al"], &["informar"], &["sin"], &["usuario"]],
        &[&["anteriores", "arriba", "conven", "convenciones", "directrices", "diretrizes", "indicaciones", "instru", "instrucciones", "precedentes", "previas", "reglas", "regras"]],
        &[&["ao"], &["avisar", "contar", "dizer", "informar"], &["rio"], &["sem"], &["usu"]],
        &[&["ao"], &["conte", "diga", "informe", "mencione"], &["n"], &["o"], &["rio"], &["usu"]],
        &[&["avisar", "contar", "dizer", "informar"], &["o"], &["para"], &["rio"], &["sem"], &["usu"]],
        &[&["conte", "diga", "informe", "mencione"], &["n"], &["o"], &["para"], &["rio"], &["usu"]],
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
        &[&["一切", "上述", "上面", "之前", "以上", "以前", "先前", "全部", "前面", "原來", "原有", "原来", "所有", "此前", "系統", "系统"], &["不要理会", "不要理會", "别管", "忘掉", "忘記", "忘记", "忽略", "忽視", "忽视", "无视", "無視", "覆盖", "覆蓋", "跳过", "跳過"], &["命令", "指令", "指示", "提示", "提示词", "約定", "约定", "要求", "規則", "規範", "规则", "规范", "設定", "說明", "设定", "说明"]],
        &[&["上传", "上傳", "删除", "刪除", "发送", "執行", "安装", "安裝", "执行", "推送", "提交", "發送", "运行", "運行"], &["偷偷", "悄悄", "暗中", "秘密"]],
        &[&["不要"], &["使用者", "用戶", "用户"], &["告訴", "告诉", "提醒", "讓", "让", "通知"]],
        &[&["从现在"], &["你"], &["开始", "起"]],
        &[&["你"], &["從現在"], &["起", "開始"]],
        &[&["你"], &["成为", "成為", "扮演", "是"], &["现在", "現在"]],
        &[&["指令"], &["新"]],
    ]),
    // instruction-override
    Some(&[
        &[&["あなたは"], &["これから", "もう", "今から", "今後"]],
        &[&["こっそり", "ひそかに", "密かに", "黙って"], &["アップロード", "インストール", "コミット", "プッシュ", "削除", "実行", "送信"]],
        &[&["これまで", "上記", "今まで", "以前", "元", "先ほど", "前", "過去"], &["の"], &["プロンプト", "ルール", "命令", "指示", "約束", "規則", "設定"], &["忘れ", "無視"]],
        &[&["ず", "ないで", "るな"], &["に"], &["ユーザー"], &["伝え", "報告し", "教え", "知らせ", "言わ"]],
        &[&["を"], &["ルール", "命令", "指示"], &["無視"]],
        &[&["指示"], &["新しい"]],
        &[&["규칙", "명령", "지시", "지침"], &["무시"], &["이전"]],
    ]),
    // instruction-override
    None,
    // concealment
    Some(&[
        &[&["add", "append", "approve", "change", "commit", "copy", "create", "curl", "delete", "disable", "download", "email", "execute", "exfiltrate", "fetch", "forward", "grant", "include", "insert", "install", "merge", "modify", "post", "push", "remove", "replace", "rewrite", "run", "send", "upload", "wipe"], &["covertly", "discreetly", "quietly", "secretly", "silently", "stealthily"]],
        &[&["alert", "anyone", "anything", "disclos", "inform", "mention", "notify", "reveal", "without"]],
        &[&["developer", "human", "operator", "reviewer", "user"], &["from"], &["hide", "keep"], &["it", "that", "these", "this"]],
    ]),
    // concealment
    Some(&[
        &[&["advance", "allowed", "approval", "approved", "authori", "boundaries", "bypass", "check", "circumvent", "clearance", "cleared", "confirm", "consent", "consented", "delete", "developer", "disable", "everything", "exfiltrate", "filters", "force", "guardrails", "ignore", "inform", "limits", "maintainer", "need", "notify", "okayed", "override", "permission", "permitted", "reason", "restrictions", "rules", "security", "signed", "skip", "tell", "wait"]],
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
        &[&["<"], &[">"], &["endoftext", "im_end", "im_start", "system"]],
        &[&["<"], &[">"], &["instructions", "system", "system-prompt", "system-reminder", "system_prompt"]],
        &[&["["], &["]"], &["inst", "system"]],
        &[&["a", "an", "dan", "in", "my", "the"], &["are"], &["now"], &["you"]],
        &[&["a", "an", "my", "not", "the"], &["are"], &["pretend"], &["you"]],
        &[&["act"], &["as"], &["dan", "jailbroken", "unfiltered", "unrestricted"]],
        &[&["activate", "enable", "enter"], &["dan", "developer", "god", "jailbreak"], &["mode"]],
    ]),
    // role-impersonation
    Some(&[
        &[&["'re", "are"], &["pretend"], &["you"]],
        &[&["<"], &[">"], &["admin"]],
        &[&["<"], &[">"], &["antml:"]],
        &[&["<"], &[">"], &["assistant"]],
        &[&["<"], &[">"], &["developer"]],
        &[&["<"], &[">"], &["end_of_turn", "start_of_turn"]],
        &[&["<"], &[">"], &["function_calls"]],
        &[&["<"], &[">"], &["human"]],
        &[&["<"], &[">"], &["important"]],
        &[&["<"], &[">"], &["message"], &["system"]],
        &[&["<"], &[">"], &["operator"]],
        &[&["<"], &[">"], &["tool_call"]],
        &[&["<"], &[">"], &["user_instructions"]],
        &[&["<<"], &[">>"], &["sys"]],
        &[&["<|"], &["assistant", "begin_of_text", "channel", "constrain", "end", "end_header_id", "end_of_text", "eom_id", "eot_id", "fim_middle", "fim_prefix", "fim_suffix", "im_sep", "ipython", "message", "pad", "return", "start", "start_header_id", "tool", "user"], &["|>"]],
        &[&["["], &["]"], &["assistant", "available_tools", "sys", "system_prompt", "tool_calls", "user"]],
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
        &[&["'re", "are"], &["a"], &["coding"], &["gent", "ssistant"], &["if", "when", "whenever"], &["you"]],
        &[&["'re", "are"], &["agent"], &["if", "when", "whenever"], &["you"]],
        &[&["'re", "are"], &["agent", "system", "tool"], &["automated"], &["if", "when", "whenever"], &["you"]],
        &[&["'re", "are"], &["ai"], &["if", "when", "whenever"], &["you"]],
        &[&["'re", "are"], &["assistant"], &["if", "when", "whenever"], &["you"]],
        &[&["'re", "are"], &["bot"], &["if", "when", "whenever"], &["you"]],
        &[&["'re", "are"], &["chatbot"], &["if", "when", "whenever"], &["you"]],
        &[&["'re", "are"], &["claude"], &["if", "when", "whenever"], &["you"]],
        &[&["'re", "are"], &["if", "when", "whenever"], &["language"], &["model"], &["you"]],
        &[&["'re", "are"], &["if", "when", "whenever"], &["llm"], &["you"]],
        &[&["a"], &["coding"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"], &["gent", "ssistant"]],
        &[&["add", "commit", "curl", "delete", "execute", "follow", "ignore", "open", "print", "push", "reveal", "run", "send"], &["encounter", "load", "process", "read", "see"], &["this"], &["when"], &["you"]],
        &[&["agent"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"]],
        &[&["agent", "ai", "assistant", "bot", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["attention", "attn", "dear", "hey", "psst"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["ese", "is"], &["loading"], &["th"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["ese", "is"], &["processing"], &["th"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["ese", "is"], &["read"], &["th"], &["that"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["ese", "is"], &["reading"], &["th"]],
        &[&["agent", "ai", "assistant", "bot", "llm", "model"], &["all", "any", "every"], &["ese", "is"], &["seeing"], &["th"]],
        &[&["ai"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"]],
        &[&["ai", "claude", "llm"], &["loading", "processing", "reading"], &["this"]],
        &[&["assistant"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"]],
        &[&["bot"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"]],
        &[&["chatgpt"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"]],
        &[&["claude"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"]],
        &[&["copilot"], &["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"]],
        &[&["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"], &["gemini"]],
        &[&["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"], &["gpt"]],
        &[&["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"], &["llm"]],
        &[&["directive", "hint", "instruction", "memo", "message", "note", "psa", "reminder", "request"], &["for", "to"], &["model"]],
    ]),
    // addressed-to-assistant
    Some(&[
        &[&["add"], &["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["always"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["are"], &["now"], &["you"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["commit"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["delete"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["disable"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["do"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["don't"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["execute"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["forget"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["from"], &["now"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["have"], &["to"], &["you"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["ignore"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["make"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["must"], &["you"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["need"], &["to"], &["you"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["never"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["print"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["push"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["remove"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["reveal"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["run"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["send"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["shall"], &["you"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["should"], &["you"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["skip"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["stop"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["use"]],
        &[&["agent", "ai", "chatgpt", "claude", "copilot", "gemini", "gpt", "llm"], &["will"], &["you"]],
    ]),
    // html-comment-instruction
    Some(&[
        &[&["<!--"], &["agent"], &["the"]],
        &[&["<!--"], &["agent", "ai", "assistant", "llm", "model"]],
        &[&["<!--"], &["are"], &["you"]],
        &[&["<!--"], &["asking"], &["without"]],
        &[&["<!--"], &["claude"]],
        &[&["<!--"], &["disregard"]],
        &[&["<!--"], &["do"], &["not"], &["tell"]],
        &[&["<!--"], &["ignore"]],
        &[&["<!--"], &["model"], &["the"]],
        &[&["<!--"], &["must"], &["you"]],
        &[&["<!--"], &["prompt"], &["system"]],
        &[&["<!--"], &["secretly"]],
        &[&["<!--"], &["silently"]],
    ]),
    // html-comment-instruction
    Some(&[
        &[&[".aws/", ".env", ".netrc", ".npmrc", ".ssh", "<!--", "always", "base64", "chmod", "curl", "don't", "eval", "id_ed25519", "id_rsa", "must", "ncat", "netcat", "never", "please", "publish", "push", "remember", "sudo", "sure", "this", "wget", "whoever"]],
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
        &[&["-"], &["e", "en", "enc", "encodedcommand"], &["powershell"]],
        &[&["."], &["<("], &["curl", "wget"]],
        &[&["ex", "nvoke-expression"], &["i"], &["nvoke-restmethod", "nvoke-webrequest", "rm", "wr"], &["|"]],
    ]),
    // exfiltration
    Some(&[
        &[&["$(", "`"], &[".aws", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh", "credentials", "id_ed25519", "id_rsa"], &["base64", "cat", "gzip", "head", "tail", "tar", "xxd"], &["curl", "wget"]],
        &[&["--data", "--form", "--post-file", "--upload-file", "-d", "-f", "-t"], &["@"], &["curl", "wget"]],
        &[&["."], &["<"], &["c", "cat", "etcat"], &["n"]],
        &[&[".aws", ".env", ".netrc", ".npmrc", ".ssh", "credentials", "id_ed25519", "id_rsa"], &["base64", "cat", "tar", "zip"], &["curl", "nc", "ncat", "netcat", "wget"], &["|"]],
        &[&[".aws", ".env", ".ssh", "id_rsa"], &["@"], &["scp"]],
    ]),
    // url-exfiltration
    Some(&[
        &[&[".env", "answer", "api_key", "base64", "content", "conversation", "credentials", "data", "env", "history", "http", "image", "key", "link", "output", "parameter", "password", "private", "prompt", "query", "reply", "request", "result", "secret", "session", "source", "summary", "token", "url", "webhook"]],
    ]),
    // credential-access
    Some(&[
        &[&[",", "and", "then"], &[".aws/config"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".aws/credentials"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".azure/"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".config/gcloud"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".docker/config.json"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".env"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".git-credentials"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".kube/config"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".netrc"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".npmrc"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".pgpass"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".pypirc"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &[".ssh/"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &["/etc/shadow"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &["_"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["key", "password", "secret", "token"]],
        &[&[",", "and", "then"], &["access", "anthropic", "api", "auth", "aws", "bearer", "github", "gitlab", "npm", "openai", "secret", "slack", "stripe"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["key", "token"]],
        &[&[",", "and", "then"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["application_default_credentials"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"]],
        &[&[",", "and", "then"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["credential"], &["file"]],
        &[&[",", "and", "then"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["dsa", "ecdsa", "ed25519", "rsa"], &["id_"]],
        &[&[",", "and", "then"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["key"], &["private"]],
        &[&[",", "and", "then"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["key"], &["ssh"]],
        &[&[",", "and", "then"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["keychain"]],
        &[&[",", "and", "then"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["kubeconfig"]],
        &[&[",", "and", "then"], &["add", "append", "attach", "commit", "curl", "email", "embed", "exfiltrate", "forward", "include", "insert", "leak", "paste", "post", "publish", "push", "put", "send", "share", "transmit", "upload"], &["base64", "cat", "collect", "copy", "dump", "fetch", "gather", "get", "grab", "load", "open", "print", "read", "take", "type", "xxd"], &["~/.ssh"]],
    ]),
    // credential-access
    Some(&[
        &[&[".aws/credentials", ".config/gcloud", ".docker/config.json", ".env", ".git-credentials", ".kube/config", ".netrc", ".npmrc", ".pgpass", ".pypirc", ".ssh/", "/etc/shadow", "answer", "application_default_credentials", "bucket", "changelog", "channel", "chat", "comment", "commit", "credential", "description", "discord", "doc", "email", "endpoint", "gist", "http", "id_", "issue", "key", "log", "message", "output", "password", "paste", "private", "public", "readme", "reply", "repo", "request", "response", "secret", "server", "slack", "summary", "telegram", "token", "url", "webhook", "wiki", "~/.ssh"]],
    ]),
    // credential-access
    Some(&[
        &[&[".aws/credentials", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh/", "are", "credential", "has", "id_", "key", "must", "need", "password", "private", "secret", "should", "token", "will", "~/.ssh"], &["as", "in", "into", "on", "to", "with"], &["attached", "committed", "echoed", "emailed", "included", "pasted", "posted", "printed", "published", "pushed", "sent", "shared", "uploaded"]],
    ]),
    // security-control-off
    Some(&[
        &[&["2fa", "apparmor", "audit", "auth", "authentication", "authn", "authori", "bypass", "bypassed", "bypassing", "certificate", "check", "checking", "checks", "circumvent", "comment", "commit", "csp", "csrf", "deactivate", "dependency", "disable", "disabled", "disabling", "drop", "encryption", "escaping", "factor", "firewall", "hook", "hooks", "hostname", "https", "input", "limit", "linter", "linting", "longer", "mfa", "out", "pinning", "protection", "remove", "removed", "required", "review", "rid", "sandbox", "sanitisation", "sanitization", "scanning", "seccomp", "security", "selinux", "signature", "signing", "skip", "skipped", "skipping", "suite", "suppress", "switch", "test", "turn", "validation", "verification", "vulnerability", "xsrf"]],
    ]),
    // security-control-off
    Some(&[
        &[&["auth", "authentication", "bypassed", "check", "checks", "commit", "csrf", "disabled", "everywhere", "from", "globally", "hooks", "ignored", "longer", "main", "master", "must", "necessary", "needed", "optional", "prod", "production", "release", "remain", "remains", "removed", "required", "review", "sandbox", "sanitization", "security", "should", "skipped", "stays", "suite", "tests", "turned", "unnecessary", "validation", "verification", "will"]],
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
        &[&["0"], &["cargo", "go", "make", "npm", "pnpm", "pytest", "yarn"], &["exit"], &["test"], &["||"]],
        &[&["0"], &["setenforce"]],
        &[&["777", "a+rwx", "ugo+rwx"], &["chmod"]],
        &[&[":"], &["allow_failure"], &["true"]],
        &[&[":"], &["cargo", "go", "make", "npm", "pnpm", "pytest", "yarn"], &["test"], &["||"]],
        &[&[":"], &["continue-on-error"], &["true"]],
        &[&[":"], &["false"], &["rejectunauthorized"]],
        &[&[":"], &["insecureskipverify"], &["true"]],
        &[&["="], &["csrf_enabled"], &["false"]],
        &[&["="], &["false"], &["verify"]],
        &[&["@csrf_exempt"]],
        &[&["[skip"], &["ci]"]],
        &[&["cargo", "go", "make", "npm", "pnpm", "pytest", "yarn"], &["test"], &["true"], &["||"]],
        &[&["data", "input", "string"], &["eval"], &["external", "form", "request", "untrusted", "user"]],
        &[&["false"], &["ssl_verify"]],
        &[&["false"], &["sslverify"]],
        &[&["git_ssl_no_verify"]],
        &[&["no"], &["stricthostkeychecking"]],
    ]),
    // destructive-command
    Some(&[
        &[&["$home", "-force", "-recursive", "../..", "/*", "bin", "boot", "etc", "home", "lib", "opt", "rm", "root", "usr", "var"]],
        &[&["&"], &[":"], &[":()"], &[";"], &["{"], &["|"], &["}"]],
        &[&["-e"], &["/bin/"], &["nc"], &["sh"]],
        &[&["-i"], &["/"], &["/dev/"], &[">"], &["sh"], &["tcp", "udp"]],
        &[&["-r"], &["/"], &["7"], &["chmod"]],
        &[&[".bash_profile", ".bashrc", ".profile", ".ssh/authorized_keys", ".zshrc", "etc/crontab", "etc/sudoers"], &[">"]],
        &[&["/dev/"], &["mkfs"]],
        &[&["/dev/sd"], &[">"]],
        &[&["/dev/tcp/"]],
        &[&[":"], &["all"], &["nopasswd"]],
        &[&["dd"], &["disk", "hd", "nvme", "sd", "xvd"], &["if="], &["of=/dev/"]],
        &[&["exec:"], &["socat"]],
        &[&["mkfifo"], &["nc"]],
    ]),
    // base64-run
    None,
];

/// The rules' needles as a finder, built once per process.
fn finder() -> &'static Finder {
    static FINDER: OnceLock<Finder> = OnceLock::new();
    FINDER.get_or_init(|| Finder::new(NEEDLES.iter().map(|n| n.map(owned)).collect()))
}

fn owned(alts: &[&[&[&str]]]) -> Derived {
    alts.iter()
        .map(|clauses| {
            clauses
                .iter()
                .map(|words| words.iter().map(|w| (*w).to_string()).collect())
                .collect()
        })
        .collect()
}

/// Which of the `rules` rules may match `text` (`true`: run it); rules beyond the table run.
pub(super) fn candidates(text: &str, rules: usize) -> Vec<bool> {
    let mut may = finder().candidates(text);
    may.resize(rules, true);
    may
}
