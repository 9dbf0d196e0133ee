//! The needles (`core::scan::needles`) of the built-in correction patterns
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
        &[&["\0no"], &["do not", "don't", "dont", "i asked", "i meant", "i said", "i told", "i wanted", "keep", "leave", "not", "revert", "stop", "the other", "undo", "use", "wrong"]],
    ]),
    // ^(don'?t|dont|do not)\b|^please (don'?t|dont|do not)\b
    Some(&[
        &[&["\0do not", "\0don't", "\0dont", "\0please do not", "\0please don't", "\0please dont"]],
    ]),
    // ^stop\s*([,.!:;-]|$)|^please stop\s*([,.!:;-]|$)
    Some(&[
        &[&["\0please stop"]],
        &[&["\0stop"]],
    ]),
    // ^stop (it|that|this|now|there|right|doing)\b|^please stop (it|that|this|now|doing)\b
    Some(&[
        &[&["\0please stop doing", "\0please stop it", "\0please stop now", "\0please stop that", "\0please stop this", "\0stop doing", "\0stop it", "\0stop now", "\0stop right", "\0stop that", "\0stop there", "\0stop this"]],
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
        &[&["incorrect", "not correct", "not right", "wrong"], &["it is ", "it was ", "it's ", "that is ", "that was ", "that's ", "this is ", "this was ", "this's "]],
    ]),
    // \b(that|this|it) (isn'?t|is not|wasn'?t|was not) (right|correct|what i)\b
    Some(&[
        &[&[" correct", " right", " what i"], &["is not", "isn't", "isnt", "was not", "wasn't", "wasnt"], &["it ", "that ", "this "]],
    ]),
    // \bthat'?s not (it|what i)\b
    Some(&[
        &[&["that's not it", "that's not what i", "thats not it", "thats not what i"]],
    ]),
    // \bnot what i (asked|meant|wanted|said)\b
    Some(&[
        &[&["not what i asked", "not what i meant", "not what i said", "not what i wanted"]],
    ]),
    // \bi (said|told you|already (said|told you)|asked you)\b
    Some(&[
        &[&["i already said", "i already told you", "i asked you", "i said", "i told you"]],
    ]),
    // ^i (meant|didn'?t (ask|want|say|mean)|did not (ask|want|say|mean)|never (asked|said|wanted))\b
    Some(&[
        &[&["\0i did not ask", "\0i did not mean", "\0i did not say", "\0i did not want", "\0i didn't ask", "\0i didn't mean", "\0i didn't say", "\0i didn't want", "\0i didnt ask", "\0i didnt mean", "\0i didnt say", "\0i didnt want", "\0i meant", "\0i never asked", "\0i never said", "\0i never wanted"]],
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
        &[&["you broke", "you forgot", "you should not have", "you shouldn't have", "you shouldnt have", "you were supposed to", "you were told to"]],
    ]),
    // ^you (didn'?t|did not|missed|deleted|removed|changed|overwrote|ignored|skipped|used|edited|touched|put)\b
    Some(&[
        &[&["\0you changed", "\0you deleted", "\0you did not", "\0you didn't", "\0you didnt", "\0you edited", "\0you ignored", "\0you missed", "\0you overwrote", "\0you put", "\0you removed", "\0you skipped", "\0you touched", "\0you used"]],
    ]),
    // \byou('re| are) (on|in|editing|using|changing|reading|looking at) the wrong\b|\byou('ve| have)? (\w+ed|took|chose|ran|wrote|made|put|read|got|hit) the wrong\b|\b(that'?s|this is|it'?s) the wrong\b
    Some(&[
        &[&[" the wrong"], &["chose", "ed", "got", "hit", "made", "put", "ran", "read", "took", "wrote"], &["you ", "you've "]],
        &[&["it's the wrong", "its the wrong", "that's the wrong", "thats the wrong", "this is the wrong"]],
        &[&["you are changing the wrong", "you are editing the wrong", "you are in the wrong", "you are looking at the wrong", "you are on the wrong", "you are reading the wrong", "you are using the wrong", "you're changing the wrong", "you're editing the wrong", "you're in the wrong", "you're looking at the wrong", "you're on the wrong", "you're reading the wrong", "you're using the wrong"]],
    ]),
    // ^(why|how come) (did|would|have) you\b|\bwhy (are|do) you (still|keep)\b|\byou keep \w+ing\b
    Some(&[
        &[&["\0how come did you", "\0how come have you", "\0how come would you", "\0why did you", "\0why have you", "\0why would you"]],
        &[&["ing"], &["you keep "]],
        &[&["why are you keep", "why are you still", "why do you keep", "why do you still"]],
    ]),
    // ^not (like (that|this)|that|this|quite|the|what|there|so fast)\b
    Some(&[
        &[&["\0not like that", "\0not like this", "\0not quite", "\0not so fast", "\0not that", "\0not the", "\0not this", "\0not what"]],
    ]),
    // ^(wait|hold on|hang on)\s*[,.!:;-]+\s*(no|don'?t|do not|stop|that'?s|this is|not|you|why|revert|undo|wrong)\b
    Some(&[
        &[&["\0hang on", "\0hold on", "\0wait"], &["don't", "dont", "no", "revert", "stop", "that's", "thats", "this is", "undo", "why", "wrong", "you"]],
    ]),
];
