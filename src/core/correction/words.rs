//! The words the correction rules look for, per rule, in English, German, French, Spanish,
//! Portuguese, Italian, Russian and Dutch. Words are as `text::Text` gives them: lower-case,
//! contractions spelt out ("don't" is `do not`, "that's" `that is`), a French elision its own
//! word (`n' utilise`, `c' est`), `е` for `ё`. A phrase is words separated by spaces; `*ing`
//! is any word ending in `ing`.

/// Words that may open a prompt before what it says: conjunctions, hesitations,
/// acknowledgements, "please". "and no, …", "ok but no", "hmm, no —", "Thanks, but don't …".
#[rustfmt::skip]
pub(super) const FILLERS: &[&str] = &[
    // en
    "and", "but", "ok", "okay", "k", "kk", "hmm", "hm", "hmmm", "um", "umm", "uh", "uhh", "ugh",
    "oh", "ah", "so", "well", "also", "yes", "yeah", "yep", "yup", "sure", "sorry", "hey", "please",
    "pls", "plz", "just", "then", "again", "look", "listen", "dude", "man", "seriously", "oops",
    "argh", "erm", "er", "err", "eh", "meh", "mm", "mmm", "thanks", "thx", "great", "good", "nice",
    "cool", "perfect", "right", "alright", "honestly", "claude",
    // de
    "und", "aber", "bitte", "danke", "gut", "ja", "naja", "na",
    // fr
    "et", "mais", "bon", "alors", "merci", "oui", "bien", "euh",
    // es
    "y", "pero", "bueno", "vale", "gracias", "sí", "pues",
    // pt
    "e", "mas", "bom", "obrigado", "obrigada", "sim", "então", "olha",
    // it
    "ma", "beh", "allora", "grazie", "sì", "ecco",
    // ru
    "и", "но", "а", "ну", "ладно", "хорошо", "спасибо", "да", "ок", "слушай", "пожалуйста",
    // nl
    "en", "maar", "oké", "dus", "bedankt", "nou", "alsjeblieft",
];

/// Fillers of more than one word.
#[rustfmt::skip]
pub(super) const FILLER_PHRASES: &[&str] = &[
    "thank you", "por favor", "per favore", "s' il te plaît", "s' il vous plaît", "s' il te plait",
    "s' il vous plait",
];

/// "wait, …": the user halts the agent; what follows says why.
#[rustfmt::skip]
pub(super) const INTERRUPTS: &[&str] = &[
    "wait", "hold on", "hang on", "one sec", "one second", "just a sec", "moment", "warte",
    "attends", "attendez", "espera", "espere", "aspetta", "подожди", "погоди", "постой", "wacht",
];

/// After an interruption, the start of a statement about what the agent is doing.
#[rustfmt::skip]
pub(super) const INTERRUPT_THEN: &[&str] = &[
    "that", "this", "it is", "you", "why", "not", "these", "those", "there is", "das", "ça", "eso",
    "isso", "questo", "это", "dat",
];

/// Not a correction after an interruption: agreement.
#[rustfmt::skip]
pub(super) const INTERRUPT_AGREE: &[&str] = &[
    "you are right", "you are correct", "that is right", "that is a good", "that is great",
];

/// "actually, …": the user changes course, unless what follows only adds or approves.
#[rustfmt::skip]
pub(super) const ACTUALLY: &[&str] = &[
    "actually", "eigentlich", "en fait", "en realidad", "na verdade", "in realtà", "вообще-то",
    "eigenlijk",
];

/// After "actually": an addition, not a change of course.
#[rustfmt::skip]
pub(super) const ACTUALLY_ADDS: &[&str] = &[
    "one more", "another thing", "also", "and also", "while you are at it", "can you also",
    "could you also", "would you also", "let us also", "i also", "we also", "i have a question",
    "quick question", "a question", "i think it is fine", "i think that is fine", "auch", "aussi",
    "también", "também", "anche", "еще", "ook",
];

/// Words that say no, opening a prompt ("no, …", "nein, nicht …", "нет, не надо …").
#[rustfmt::skip]
pub(super) const NEGATIONS: &[&str] = &[
    "no", "nope", "nah", "nein", "nö", "non", "não", "nao", "нет", "nee", "neen",
];

/// A reply that only approves or thanks ("no, that's fine, go ahead", "nein danke").
#[rustfmt::skip]
pub(super) const REPLIES: &[&str] = &[
    // en
    "thanks", "thank you", "thx", "ty", "fine", "good", "great", "perfect", "ok", "okay", "alright",
    "all good", "all set", "looks good", "look good", "lgtm", "that works", "it works", "go ahead",
    "go on", "carry on", "continue", "proceed", "keep going", "sounds good", "never mind",
    "nevermind", "no problem", "no worries", "no rush", "no need", "that is fine", "that is ok",
    "that is okay", "that is good", "that is great", "that is perfect", "that is all", "that is it",
    "that was all", "that was it", "that is correct", "that is right", "that is everything",
    "that was everything", "it is fine", "it is ok", "it is okay", "it is good", "it is all good",
    "it is correct", "all fine", "nothing else", "i am good", "i am fine", "we are good",
    "we are fine", "you are right",
    // de
    "danke", "passt", "das passt", "alles gut", "alles klar", "ist gut", "das ist gut",
    "das ist ok", "das ist in ordnung", "in ordnung", "schon gut", "kein problem", "keine sorge",
    "keine eile", "mach weiter", "mach ruhig", "das ist alles", "das war es", "das wars",
    // fr
    "merci", "c' est bon", "c' est parfait", "c' est ok", "c' est très bien", "c' est bien",
    "ça va", "ça marche", "pas de souci", "pas de soucis", "pas de problème", "parfait", "vas-y",
    "très bien", "c' est tout",
    // es
    "gracias", "está bien", "esta bien", "todo bien", "así está bien", "perfecto", "sigue",
    "adelante", "no pasa nada", "no hay problema", "no hay prisa", "de acuerdo", "eso es todo",
    // pt
    "obrigado", "obrigada", "está bom", "esta bom", "tudo bem", "tudo certo", "pode continuar",
    "pode seguir", "sem problema", "sem problemas", "perfeito", "beleza", "valeu", "é tudo",
    "só isso",
    // it
    "grazie", "va bene", "tutto bene", "tutto ok", "perfetto", "continua", "vai", "nessun problema",
    "non c' è problema", "non c' è fretta", "è tutto",
    // ru
    "спасибо", "все хорошо", "все нормально", "все ок", "все в порядке", "нормально", "хорошо",
    "ок", "отлично", "продолжай", "без проблем", "это все", "все",
    // nl
    "dank je", "dank u", "bedankt", "prima", "dat is goed", "is goed", "dat is prima",
    "geen probleem", "geen zorgen", "ga door", "ga je gang", "klopt", "dat is alles", "dat was het",
];

/// After a bare "no" (no comma): a request ("no need to …", "no rush", "no hay prisa").
#[rustfmt::skip]
pub(super) const NO_REQUEST: &[&str] = &[
    "need", "rush", "hurry", "idea", "clue", "pressure", "worries", "worry", "problem", "problems",
    "biggie", "stress", "hay", "pasa", "hace", "sé", "se", "sei", "so", "c'", "preciso", "precisa",
    "serve",
];

/// After a bare "no": "no more X".
#[rustfmt::skip]
pub(super) const NO_MORE: &[&str] = &[
    "more", "mehr", "plus", "más", "mais", "più", "больше", "meer",
];

/// After a bare "no": words that begin a correction ("no don't", "no the other one", "no
/// not that", "nein nicht …").
#[rustfmt::skip]
pub(super) const NO_THEN: &[&str] = &[
    "not", "do", "stop", "use", "the", "that", "this", "those", "these", "you", "wrong", "keep",
    "leave", "revert", "undo", "instead", "please", "just", "put", "we", "it", "way", "other",
    "wait", "nicht", "das", "pas", "ne", "n'", "não", "nao", "не", "niet", "nee", "non", "no",
    "eso", "esto", "esa", "esta", "isso", "isto", "quello", "questo", "это", "dat", "die",
];

/// After "no I": what makes it a correction ("no I meant …").
#[rustfmt::skip]
pub(super) const NO_I_THEN: &[&str] = &[
    "meant", "said", "asked", "wanted", "told", "did not", "do not want", "never", "would",
];

/// "no, I haven't …": an answer to the agent's question, not a correction.
pub(super) const ANSWER_SUBJECTS: &[&str] = &["i", "it", "we", "there", "they", "he", "she"];
#[rustfmt::skip]
pub(super) const ANSWER_AUX: &[&str] = &[
    "do", "does", "did", "have", "has", "am", "is", "are", "was", "were", "can", "could", "will",
    "would",
];
/// ... unless it rejects: "no, I don't want that".
pub(super) const ANSWER_REJECTS: &[&str] = &["want", "like", "need", "ask", "say", "mean", "tell"];

/// After "don't", "never", "you shouldn't": not a correction ("don't forget …", "don't
/// worry about …", "never mind").
#[rustfmt::skip]
pub(super) const DONT_REQUEST: &[&str] = &[
    "forget", "worry", "hesitate", "bother", "you", "rush", "hurry", "panic", "stress", "mind",
    "sweat", "be afraid", "be shy", "be scared",
];

/// After a leading "not": not a correction ("not sure why …", "not urgent, but …").
#[rustfmt::skip]
pub(super) const NOT_REQUEST: &[&str] = &[
    "sure", "bad", "urgent", "important", "related", "relevant", "much", "only", "a big deal",
    "a problem", "a priority", "a blocker", "that important", "too", "all",
];

/// A leading German or Dutch "not", "no (noun)": `nicht …`, `keine …`, `niet …`, `geen …`.
pub(super) const NOT_WORDS: &[&str] =
    &["nicht", "niet", "kein", "keine", "keinen", "keiner", "geen"];
/// ... that is a request ("keine Sorge", "nicht vergessen", "geen probleem").
#[rustfmt::skip]
pub(super) const NOT_WORDS_REQUEST: &[&str] = &[
    "vergessen", "schlecht", "wichtig", "problem", "probleme", "sorge", "sorgen", "eile", "stress",
    "ahnung", "dringend", "vergeten", "slecht", "belangrijk", "probleem", "zorgen", "haast", "idee",
    "dank", "dringend",
];

/// German and Dutch imperatives that a `nicht`/`kein`/`niet`/`geen` in the same clause
/// negates ("Fass die Migration nicht an", "Gebruik geen unwrap").
#[rustfmt::skip]
pub(super) const DE_NL_IMPERATIVES: &[&str] = &[
    "mach", "mache", "benutze", "benutz", "verwende", "nutze", "nutz", "fass", "ändere", "änder",
    "lösche", "lösch", "schreib", "schreibe", "füge", "nimm", "pushe", "committe", "ruf", "lass",
    "installiere", "entferne", "gebruik", "verander", "raak", "wijzig", "verwijder", "doe", "zet",
    "voeg", "maak", "schrijf", "installeer",
];
/// ... unless the clause says this ("vergiss nicht", "maak je geen zorgen").
#[rustfmt::skip]
pub(super) const DE_NL_REQUEST: &[&str] = &[
    "sorgen", "zorgen", "vergiss", "vergeet", "dir",
];

/// French: after a leading `ne`/`n'`, not a correction ("n'oublie pas", "ne t'inquiète pas").
#[rustfmt::skip]
pub(super) const NE_REQUEST: &[&str] = &[
    "oublie", "oubliez", "t'", "te", "vous", "hésite", "hésitez", "inquiète", "inquiétez",
];
/// French: after a leading `pas`, not a correction ("pas de souci", "pas mal").
#[rustfmt::skip]
pub(super) const PAS_REQUEST: &[&str] = &[
    "de souci", "de soucis", "de problème", "de stress", "de panique", "mal", "sûr", "grave",
    "urgent", "besoin",
];

/// Words that tell Spanish from English in a sentence (`no` starts both).
#[rustfmt::skip]
pub(super) const SPANISH: &[&str] = &[
    "el", "la", "los", "las", "de", "del", "que", "con", "por", "para", "esa", "ese", "eso",
    "esto", "esta", "este", "un", "una", "todavía", "nada", "aquí", "y", "lo", "mi", "tu", "su",
    "al", "más", "ya",
];
/// ... and English.
#[rustfmt::skip]
pub(super) const ENGLISH: &[&str] = &[
    "the", "to", "an", "is", "are", "in", "for", "of", "and", "it", "this", "that", "with", "on",
    "be", "yet", "please", "any", "my", "your", "now", "here", "needed",
];

/// Spanish object pronouns between `no` and its verb ("no lo toques").
#[rustfmt::skip]
pub(super) const ES_CLITICS: &[&str] = &[
    "lo", "la", "los", "las", "le", "les", "me", "te", "nos", "se",
];
/// Spanish: `no` + these is not a correction ("no te olvides", "no tienes que …").
#[rustfmt::skip]
pub(super) const ES_REQUEST: &[&str] = &[
    "olvides", "olvidés", "preocupes", "dudes", "tienes", "necesitas", "crees", "creas", "sabes",
    "apures", "agobies",
];
/// Italian: `non` + these is not a correction ("non dimenticare", "non preoccuparti").
#[rustfmt::skip]
pub(super) const IT_REQUEST: &[&str] = &[
    "dimenticare", "dimenticarti", "dimenticarlo", "preoccuparti", "preoccupare", "preoccuparsi",
    "esitare", "affrettarti", "disturbarti",
];
/// Portuguese: `não` + these is a negated imperative ("não mexa", "não use").
#[rustfmt::skip]
pub(super) const PT_IMPERATIVES: &[&str] = &[
    "use", "usa", "mexa", "mexe", "toque", "toca", "apague", "apaga", "altere", "altera", "mude",
    "muda", "faça", "faz", "coloque", "coloca", "ponha", "adicione", "adiciona", "remova",
    "remove", "crie", "cria", "escreva", "escreve", "rode", "roda", "execute", "executa",
    "commite", "suba", "sobe", "delete", "deleta", "edite", "edita", "mexam", "instale",
];
/// Portuguese: `não` + these is not a correction ("não se preocupe", "não esqueça").
pub(super) const PT_REQUEST: &[&str] =
    &["se", "esqueça", "esqueca", "esquece", "precisa", "precisas"];

/// Russian: `не` + these is not a correction ("не забудь", "не волнуйся", "не нужно").
#[rustfmt::skip]
pub(super) const RU_REQUEST: &[&str] = &[
    "забудь", "забывай", "волнуйся", "переживай", "беспокойся", "торопись", "спеши", "стесняйся",
    "нужно", "очень", "совсем",
];
/// Russian: `не` + these is a correction whatever follows ("не надо", "не то", "не так").
pub(super) const RU_NEGATED: &[&str] = &["надо", "стоит", "то", "так", "трогай", "нужен"];

/// Undo verbs that need what they undo to be the agent's work ("revert that", "undo your
/// last edit", not "revert the version bump from yesterday's commit").
pub(super) const UNDO_VERBS: &[&str] = &["revert", "undo", "roll back", "rollback", "back out"];
/// What "revert" and "undo" point at when it is the agent's work, whatever else the clause
/// says ("revert that", "undo your last edit", "revert everything").
#[rustfmt::skip]
pub(super) const UNDO_WHAT: &[&str] = &[
    "that", "this", "it", "those", "these", "them", "your", "you", "what you", "everything", "all",
    "back",
];
/// After "revert"/"undo": a noun, not the verb ("undo support would be nice").
#[rustfmt::skip]
pub(super) const UNDO_NOUNS: &[&str] = &[
    "support", "button", "command", "feature", "functionality", "stack", "history", "log", "redo",
    "operation", "action", "shortcut", "key", "and", "or", "is", "should", "would", "will",
];
/// In the clause of "revert …": it is older history, not the agent's work ("revert the
/// version bump from yesterday's commit", "revert commit abc123").
#[rustfmt::skip]
pub(super) const UNDO_HISTORY: &[&str] = &[
    "commit", "commits", "yesterday", "yesterday's", "week", "month", "pr", "release", "deploy",
    "deployment", "tag", "merge", "upstream",
];
/// "change it back", "put it back", "switch back": undo.
#[rustfmt::skip]
pub(super) const BACK_VERBS: &[&str] = &[
    "change", "put", "set", "turn", "move", "switch", "bring", "roll",
];
/// After "… back": it puts something back where it was ("put the test back, …", "change it
/// back to 30"), not "put the results back into the cache".
pub(super) const BACK_THEN: &[&str] =
    &["to", "the", "as", "how", "where", "like", "please", "again"];
/// "go back to the previous version", "go back to using …".
#[rustfmt::skip]
pub(super) const GO_BACK_TO: &[&str] = &[
    "the old", "the previous", "the original", "the earlier", "the former", "the last", "using",
    "how", "what", "the way",
];
/// "restore the original …".
#[rustfmt::skip]
pub(super) const RESTORE_WHAT: &[&str] = &[
    "the old", "the original", "the previous", "it", "that", "the deleted", "what you", "my",
];
/// Undo verbs of other languages: an imperative at the start ("Annule ça", "Deshaz el último
/// cambio", "Откати …").
#[rustfmt::skip]
pub(super) const UNDO_FOREIGN: &[&str] = &[
    "annule", "annulez", "annuler", "reviens", "deshaz", "deshacer", "revierte", "revertir",
    "desfaz", "desfaça", "desfazer", "reverte", "reverta", "annulla", "ripristina", "откати",
    "откатить", "отмени", "отменить", "верни", "вернуть",
];
/// What makes a leading "stop" a correction ("stop it", "stop doing that", "stop!").
#[rustfmt::skip]
pub(super) const STOP_WHAT: &[&str] = &[
    "it", "that", "this", "now", "there", "right", "doing", "please", "already", "immediately",
    "everything", "*ing",
];
/// Stop words of other languages, correcting as they stand ("Hör auf", "Arrête de …").
#[rustfmt::skip]
pub(super) const STOP_FOREIGN: &[&str] = &[
    "hör auf", "arrête", "arrêtez", "arrete", "basta", "detente", "fermati", "стоп", "хватит",
    "прекрати", "остановись", "hou op",
];
/// Stop words that are also ordinary words: only before punctuation or alone ("Halt, …").
pub(super) const STOP_ALONE: &[&str] = &["halt", "stopp", "para", "pare", "ferma"];

/// Phrases that correct when a prompt opens with them, with the rule they belong to.
pub(super) const AT_START: &[(&str, super::Rule)] = {
    use super::Rule::{Complaint, Meant, Redirection, Wrong};
    &[
        ("i meant", Meant),
        ("i did not ask", Meant),
        ("i did not want", Meant),
        ("i did not say", Meant),
        ("i did not mean", Meant),
        ("i did not tell", Meant),
        ("i never asked", Meant),
        ("i never said", Meant),
        ("i never wanted", Meant),
        ("i never told", Meant),
        ("i do not want", Meant),
        ("i do not like", Redirection),
        ("i would rather", Redirection),
        ("i would prefer", Redirection),
        ("i prefer", Redirection),
        ("let us not", Redirection),
        ("why did you", Complaint),
        ("why would you", Complaint),
        ("why have you", Complaint),
        ("why are you", Complaint),
        ("why do you keep", Complaint),
        ("why do you still", Complaint),
        ("how come you", Complaint),
        ("who told you", Complaint),
        ("who asked you", Complaint),
        ("what did you do", Complaint),
        ("what have you done", Complaint),
        ("what are you doing", Complaint),
        ("what the hell", Complaint),
        ("what the heck", Complaint),
        ("wtf", Complaint),
        ("that broke", Complaint),
        ("this broke", Complaint),
        ("wrong", Wrong),
        // de
        ("ich meinte", Meant),
        ("ich sagte", Meant),
        ("ich habe gesagt", Meant),
        ("ich hatte gesagt", Meant),
        ("warum hast du", Complaint),
        ("wieso hast du", Complaint),
        ("weshalb hast du", Complaint),
        ("falsch", Wrong),
        ("falsche", Wrong),
        ("falsches", Wrong),
        ("falschen", Wrong),
        // fr
        ("je voulais dire", Meant),
        ("j' ai dit", Meant),
        ("je t' ai dit", Meant),
        ("je ne voulais pas", Meant),
        ("pourquoi as-tu", Complaint),
        ("pourquoi tu as", Complaint),
        ("pourquoi avez-vous", Complaint),
        ("pourquoi vous avez", Complaint),
        ("tu as cassé", Complaint),
        ("tu as supprimé", Complaint),
        ("tu as oublié", Complaint),
        ("tu as effacé", Complaint),
        ("faux", Wrong),
        // es
        ("me refería", Meant),
        ("quise decir", Meant),
        ("quería decir", Meant),
        ("te dije", Meant),
        ("ya te dije", Meant),
        ("dije", Meant),
        ("por qué *aste", Complaint),
        ("por qué *iste", Complaint),
        ("por qué has", Complaint),
        ("rompiste", Complaint),
        ("borraste", Complaint),
        ("olvidaste", Complaint),
        ("está mal", Wrong),
        ("esta mal", Wrong),
        ("incorrecto", Wrong),
        // pt
        ("eu quis dizer", Meant),
        ("quis dizer", Meant),
        ("eu disse", Meant),
        ("eu falei", Meant),
        ("por que você *ou", Complaint),
        ("por que você *eu", Complaint),
        ("por que você *iu", Complaint),
        ("por que você fez", Complaint),
        ("você quebrou", Complaint),
        ("você apagou", Complaint),
        ("você esqueceu", Complaint),
        ("você removeu", Complaint),
        ("você mudou", Complaint),
        ("você deletou", Complaint),
        ("está errado", Wrong),
        ("errado", Wrong),
        // it
        ("intendevo", Meant),
        ("ho detto", Meant),
        ("ti ho detto", Meant),
        ("perché hai *ato", Complaint),
        ("perché hai *uto", Complaint),
        ("perché hai *ito", Complaint),
        ("perché hai *otto", Complaint),
        ("hai rotto", Complaint),
        ("hai cancellato", Complaint),
        ("hai dimenticato", Complaint),
        ("hai eliminato", Complaint),
        ("hai tolto", Complaint),
        ("hai rimosso", Complaint),
        ("è sbagliato", Wrong),
        ("sbagliato", Wrong),
        // ru
        ("я имел в виду", Meant),
        ("я имела в виду", Meant),
        ("имел в виду", Meant),
        ("я же сказал", Meant),
        ("я же сказала", Meant),
        ("я сказал", Meant),
        ("я сказала", Meant),
        ("я просил", Meant),
        ("я просила", Meant),
        ("зачем ты", Complaint),
        ("почему ты *л", Complaint),
        ("почему ты *ла", Complaint),
        ("ты сломал", Complaint),
        ("ты сломала", Complaint),
        ("ты удалил", Complaint),
        ("ты удалила", Complaint),
        ("ты забыл", Complaint),
        ("ты забыла", Complaint),
        ("ты испортил", Complaint),
        ("неправильно", Wrong),
        ("неверно", Wrong),
        // nl
        ("ik bedoelde", Meant),
        ("ik zei", Meant),
        ("ik had gezegd", Meant),
        ("waarom heb je", Complaint),
        ("waarom heeft u", Complaint),
        ("fout", Wrong),
        ("verkeerd", Wrong),
        ("verkeerde", Wrong),
    ]
};

/// Leading "instead", "rather than": a redirection unless the sentence asks ("instead of a
/// loop could we use map?").
#[rustfmt::skip]
pub(super) const REDIRECT_START: &[&str] = &[
    "instead", "rather than", "rather", "statt", "anstatt", "stattdessen", "au lieu de",
    "en vez de", "en lugar de", "em vez de", "ao invés de", "invece di", "anziché", "вместо",
    "in plaats van", "in plaats daarvan",
];

/// After a leading "you": a complaint about what the agent did ("you broke …", "you
/// deleted …"); `just`, `also`, `again`, `have` may stand between.
#[rustfmt::skip]
pub(super) const YOU_DID: &[&str] = &[
    "broke", "broken", "deleted", "removed", "changed", "forgot", "forgotten", "missed", "ignored",
    "skipped", "overwrote", "overwritten", "used", "edited", "touched", "put", "added",
    "introduced", "renamed", "moved", "reformatted", "rewrote", "dropped", "lost", "wiped",
    "committed", "pushed", "reverted", "did not", "never", "keep", "still", "were supposed",
    "were told", "were not", "messed", "screwed", "made it worse", "ran", "went", "misread",
    "misunderstood", "not", "are overcomplicating", "are overengineering", "are overthinking",
    "are ignoring", "are breaking", "are making it worse", "are doing it wrong",
    "are going in circles", "are still", "are not listening",
];
/// May stand between "you" and what it did.
#[rustfmt::skip]
pub(super) const YOU_ADVERBS: &[&str] = &[
    "just", "also", "again", "have", "completely", "totally", "clearly",
];

/// Phrases that correct anywhere in the start of a prompt, as the old patterns did: they
/// name the agent's mistake or what it was told.
pub(super) const ANYWHERE: &[(&str, super::Rule)] = {
    use super::Rule::{Complaint, Meant, NegatedImperative, Undo, Wrong};
    &[
        ("you broke", Complaint),
        ("you have broken", Complaint),
        ("you forgot", Complaint),
        ("you have forgotten", Complaint),
        ("you should not have", Complaint),
        ("you were supposed to", Complaint),
        ("you were told to", Complaint),
        ("you were not supposed", Complaint),
        ("you are not supposed", Complaint),
        ("you keep *ing", Complaint),
        ("why are you still", Complaint),
        ("why do you keep", Complaint),
        ("who told you to", Complaint),
        ("i told you", Meant),
        ("i said", Meant),
        ("i already said", Meant),
        ("i already told", Meant),
        ("i asked you", Meant),
        ("i asked for", Meant),
        ("i asked to", Meant),
        ("not what i asked", Meant),
        ("not what i meant", Meant),
        ("not what i wanted", Meant),
        ("not what i said", Meant),
        ("not what i told", Meant),
        ("that is not what", Meant),
        ("this is not what", Meant),
        ("that was not what", Meant),
        ("that is wrong", Wrong),
        ("this is wrong", Wrong),
        ("it is wrong", Wrong),
        ("that was wrong", Wrong),
        ("that is incorrect", Wrong),
        ("this is incorrect", Wrong),
        ("it is incorrect", Wrong),
        ("that is not right", Wrong),
        ("this is not right", Wrong),
        ("it is not right", Wrong),
        ("that is not correct", Wrong),
        ("this is not correct", Wrong),
        ("it is not correct", Wrong),
        ("that was not right", Wrong),
        ("that is not it", Wrong),
        ("that is the wrong", Wrong),
        ("this is the wrong", Wrong),
        ("it is the wrong", Wrong),
        ("that is not how", Wrong),
        ("this is not how", Wrong),
        ("that is not the right", Wrong),
        ("this is not the right", Wrong),
        ("that is not the way", Wrong),
        ("that is overkill", Wrong),
        ("this is overkill", Wrong),
        ("that is too complicated", Wrong),
        ("this is too complicated", Wrong),
        ("that is way too", Wrong),
        ("the other way around", Wrong),
        ("the other way round", Wrong),
        ("the wrong way around", Wrong),
        ("the wrong way round", Wrong),
        ("that is not necessary", Wrong),
        ("that is not needed", Wrong),
        ("this is not necessary", Wrong),
        ("this is not needed", Wrong),
        ("you should not", NegatedImperative),
        ("you should never", NegatedImperative),
        ("you must not", NegatedImperative),
        ("you must never", NegatedImperative),
        ("please do not", NegatedImperative),
        ("please never", NegatedImperative),
        // de
        ("das ist falsch", Wrong),
        ("ist falsch", Wrong),
        ("das stimmt nicht", Wrong),
        ("das meinte ich nicht", Meant),
        ("nicht das was ich", Meant),
        ("nicht was ich", Meant),
        ("kaputt gemacht", Complaint),
        // fr
        ("c' est faux", Wrong),
        ("ce n' est pas ça", Wrong),
        ("c' est pas ça", Wrong),
        ("pas ce que j' ai", Meant),
        ("pas ce que je", Meant),
        ("tu as cassé", Complaint),
        // es
        ("eso está mal", Wrong),
        ("esto está mal", Wrong),
        ("no es lo que", Meant),
        ("lo que pedí", Meant),
        ("lo que te pedí", Meant),
        // pt
        ("isso está errado", Wrong),
        ("isto está errado", Wrong),
        ("não é isso", Wrong),
        ("não era isso", Wrong),
        ("não foi isso", Meant),
        // it
        ("questo è sbagliato", Wrong),
        ("non è quello che", Meant),
        ("non è corretto", Wrong),
        // ru
        ("это неправильно", Wrong),
        ("это неверно", Wrong),
        ("это не то", Wrong),
        ("не то что", Meant),
        // nl
        ("dat is fout", Wrong),
        ("dit is fout", Wrong),
        ("dat klopt niet", Wrong),
        ("niet wat ik", Meant),
        ("kapot gemaakt", Complaint),
        ("ongedaan", Undo),
        ("rückgängig", Undo),
    ]
};

/// Redirection words that count anywhere in the first sentence unless it asks ("use a
/// BTreeMap instead", "Usa invece una HashMap"); `instead of` does not ("return an error
/// instead of panicking").
#[rustfmt::skip]
pub(super) const INSTEAD: &[&str] = &[
    "instead", "stattdessen", "plutôt", "invece", "em vez disso", "en su lugar", "вместо этого",
    "in plaats daarvan",
];
/// ... unless followed by these.
pub(super) const INSTEAD_NOT: &[&str] = &["of", "di"];

/// Before "you": it asks, or names someone else ("can you check why … shows the wrong date").
#[rustfmt::skip]
pub(super) const NOT_BEFORE_YOU: &[&str] = &[
    "can", "could", "would", "will", "do", "did", "if", "when", "that", "whether", "are", "have",
];

/// Past participles that are not `*ed` ("you should have kept …").
#[rustfmt::skip]
pub(super) const PARTICIPLES: &[&str] = &[
    "done", "gone", "run", "written", "made", "kept", "left", "put", "taken", "read", "told",
    "seen", "been", "set", "built", "thrown", "given", "chosen", "known", "shown", "stuck",
];
