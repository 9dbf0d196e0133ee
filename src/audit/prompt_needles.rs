//! The needles (`core::needles`) of the built-in correction patterns
//! (`core::config::CORRECTIONS`), as a table: parsing the patterns to derive them costs
//! about a millisecond, which every prompt would pay. A test derives them from the patterns
//! and fails, with the table to paste, when a pattern changes without them.

/// Per pattern: alternatives → clauses → words; `None`: always run.
pub(super) type Needles = Option<&'static [&'static [&'static [&'static str]]]>;

/// The needles of each built-in correction pattern, in order.
#[rustfmt::skip]
pub(super) const CORRECTIONS: &[Needles] = &[
    // ^(no|nope)([,.!:;-]|\s*$)
    Some(&[
        &[&["\0no"]],
    ]),
    // ^no(\s+no)+\b|^nah\b
    Some(&[
        &[&["\0n"], &["ah"]],
        &[&["\0n"], &["no"], &["o"]],
    ]),
    // ^(no|nope)[,.!]?\s+(i (meant|said|asked|wanted|told)|not|don'?t|do not|stop|wrong|use|the other|keep|leave|revert|undo)\b
    Some(&[
        &[&["\0no"], &["asked", "do not", "don", "keep", "leave", "meant", "not", "revert", "said", "stop", "the other", "told", "undo", "use", "wanted", "wrong"], &["do not", "i ", "keep", "leave", "not", "revert", "stop", "t", "the other", "undo", "use", "wrong"]],
    ]),
    // ^(don'?t|dont|do not)\b|^please (don'?t|dont|do not)\b
    Some(&[
        &[&["\0do"], &[" not"]],
        &[&["\0do"], &["n"], &["t"]],
        &[&["\0do"], &["nt"]],
        &[&["\0please "], &[" not"], &["do"]],
        &[&["\0please "], &["do"], &["n"], &["t"]],
        &[&["\0please "], &["do"], &["nt"]],
    ]),
    // ^stop\s*([,.!:;-]|$)|^please stop\s*([,.!:;-]|$)
    Some(&[
        &[&["\0please stop"]],
        &[&["\0stop"]],
    ]),
    // ^stop (it|that|this|now|there|right|doing)\b|^please stop (it|that|this|now|doing)\b
    Some(&[
        &[&["\0please stop "], &["doing", "it", "now", "that", "this"]],
        &[&["\0stop "], &["doing", "it", "now", "right", "that", "there", "this"]],
    ]),
    // ^stop \w+ing\b|^please stop \w+ing\b
    Some(&[
        &[&["\0please stop "], &["ing"]],
        &[&["\0stop "], &["ing"]],
    ]),
    // ^actually\b
    Some(&[
        &[&["\0actually"]],
    ]),
    // \b(that|this|it)('s| is| was) (wrong|incorrect|not (right|correct))\b
    Some(&[
        &[&[" "], &[" is", " was", "'s"], &["correct", "right"], &["it", "that", "this"], &["not "]],
        &[&[" "], &[" is", " was", "'s"], &["incorrect"], &["it", "that", "this"]],
        &[&[" "], &[" is", " was", "'s"], &["it", "that", "this"], &["wrong"]],
    ]),
    // \b(that|this|it) (isn'?t|is not|wasn'?t|was not) (right|correct|what i)\b
    Some(&[
        &[&[" "], &["correct", "right", "what i"], &["is not"], &["it", "that", "this"]],
        &[&[" "], &["correct", "right", "what i"], &["isn"], &["it", "that", "this"], &["t"]],
        &[&[" "], &["correct", "right", "what i"], &["it", "that", "this"], &["t"], &["wasn"]],
        &[&[" "], &["correct", "right", "what i"], &["it", "that", "this"], &["was not"]],
    ]),
    // \bthat'?s not (it|what i)\b
    Some(&[
        &[&["it", "what i"], &["s not "], &["that"]],
    ]),
    // \bnot what i (asked|meant|wanted|said)\b
    Some(&[
        &[&["asked", "meant", "said", "wanted"], &["not what i "]],
    ]),
    // \bi (said|told you|already (said|told you)|asked you)\b
    Some(&[
        &[&["already "], &["i "], &["said", "told you"]],
        &[&["asked you"], &["i "]],
        &[&["i "], &["said"]],
        &[&["i "], &["told you"]],
    ]),
    // ^i (meant|didn'?t (ask|want|say|mean)|did not (ask|want|say|mean)|never (asked|said|wanted))\b
    Some(&[
        &[&["\0i "], &["ask", "mean", "say", "want"], &["did not "]],
        &[&["\0i "], &["ask", "mean", "say", "want"], &["didn"], &["t "]],
        &[&["\0i "], &["asked", "said", "wanted"], &["never "]],
        &[&["\0i "], &["meant"]],
    ]),
    // ^instead\b
    Some(&[
        &[&["\0instead"]],
    ]),
    // ^((please|can you|could you|would you)\s+)*(revert|undo|roll back)\s+(that|this|it|those|these|your|what you|the last|everything|all)\b
    Some(&[
        &[&["all", "everything", "it", "that", "the last", "these", "this", "those", "what you", "your"], &["revert", "roll back", "undo"]],
    ]),
    // ^(revert|undo)\s*[.!]*$
    Some(&[
        &[&["\0revert", "\0undo"]],
    ]),
    // ^wrong\b
    Some(&[
        &[&["\0wrong"]],
    ]),
    // \byou (broke|shouldn'?t have|should not have|were (supposed|told) to|forgot)\b
    Some(&[
        &[&[" to"], &["supposed", "told"], &["were "], &["you "]],
        &[&["broke"], &["you "]],
        &[&["forgot"], &["you "]],
        &[&["should not have"], &["you "]],
        &[&["shouldn"], &["t have"], &["you "]],
    ]),
    // ^you (didn'?t|did not|missed|deleted|removed|changed|overwrote|ignored|skipped|used|edited|touched|put)\b
    Some(&[
        &[&["\0you "], &["changed", "deleted", "did not", "didn", "edited", "ignored", "missed", "overwrote", "put", "removed", "skipped", "touched", "used"], &["changed", "deleted", "did not", "edited", "ignored", "missed", "overwrote", "put", "removed", "skipped", "t", "touched", "used"]],
    ]),
    // \byou('re| are) (on|in|editing|using|changing|reading|looking at) the wrong\b|\byou('ve| have)? (\w+ed|took|chose|ran|wrote|made|put|read|got|hit) the wrong\b|\b(that'?s|this is|it'?s) the wrong\b
    Some(&[
        &[&[" "], &[" are", "'re"], &[" the wrong"], &["changing", "editing", "in", "looking at", "on", "reading", "using"], &["you"]],
        &[&[" "], &[" the wrong"], &["chose", "ed", "got", "hit", "made", "put", "ran", "read", "took", "wrote"], &["you"]],
        &[&[" the wrong"], &["it"], &["s"]],
        &[&[" the wrong"], &["s"], &["that"]],
        &[&[" the wrong"], &["this is"]],
    ]),
    // ^(why|how come) (did|would|have) you\b|\bwhy (are|do) you (still|keep)\b|\byou keep \w+ing\b
    Some(&[
        &[&["\0how come", "\0why"], &[" "], &[" you"], &["did", "have", "would"]],
        &[&[" you "], &["are", "do"], &["keep", "still"], &["why "]],
        &[&["ing"], &["you keep "]],
    ]),
    // ^not (like (that|this)|that|this|quite|the|what|there|so fast)\b
    Some(&[
        &[&["\0not "], &["at", "is"], &["like "], &["th"]],
        &[&["\0not "], &["quite"]],
        &[&["\0not "], &["so fast"]],
        &[&["\0not "], &["that"]],
        &[&["\0not "], &["the"]],
        &[&["\0not "], &["there"]],
        &[&["\0not "], &["this"]],
        &[&["\0not "], &["what"]],
    ]),
    // ^(wait|hold on|hang on)\s*[,.!:;-]+\s*(no|don'?t|do not|stop|that'?s|this is|not|you|why|revert|undo|wrong)\b
    Some(&[
        &[&["\0hang on", "\0hold on", "\0wait"], &["do not", "don", "no", "not", "revert", "stop", "that", "this is", "undo", "why", "wrong", "you"], &["do not", "no", "not", "revert", "s", "stop", "t", "this is", "undo", "why", "wrong", "you"]],
    ]),
];
