//! The shell lexer (`core::shell`) on real commands: what each reads and writes, and whether
//! it changes files. Audit (a call's `change` record and its paths) and capture (the files in
//! flight) both take their answer from `effects`, so this table is theirs too. Issue 35's
//! three cases come first: a redirect inside a quoted heredoc body, a `>` in a heredoc fed
//! to Python, and a write to a file by descriptor 2.

use baton::core::shell::{commands, effects};

/// (command, reads, writes, changes files)
const CASES: &[(&str, &[&str], &[&str], bool)] = &[
    // Issue 35.
    ("cat <<'EOF'\nstep one\na > b\nEOF", &[], &[], false),
    ("python3 - <<EOF\nprint(1 > 0)\nEOF", &[], &[], false),
    ("grep -rn TODO src 2> errors.log", &[], &["errors.log"], true),
    // Plain reads.
    ("ls -la", &[], &[], false),
    ("git status --short", &[], &[], false),
    ("cargo test 2>&1 | tail -n 20", &[], &[], false),
    ("grep '<div>' index.html", &[], &[], false),
    ("awk '$1 > 3' data.txt", &[], &[], false),
    ("python3 -c 'print(1 > 2)'", &[], &[], false),
    ("echo '; rm -rf x'", &[], &[], false),
    ("echo \"a > b\" 'c >> d'", &[], &[], false),
    ("echo \\> not-a-redirect", &[], &[], false),
    ("cat <<< 'a > b'", &[], &[], false),
    ("npm install 2>/dev/null || yarn install", &[], &[], false),
    ("cmd 2>&1 >/dev/null", &[], &[], false),
    ("make >&2", &[], &[], false),
    ("echo $((3 > 2))", &[], &[], false),
    ("(( count > 3 )) && echo many", &[], &[], false),
    ("[[ $a > $b ]] && echo later", &[], &[], false),
    ("git -c core.pager=cat diff", &[], &[], false),
    ("git --no-pager log -p -- src/", &[], &[], false),
    ("git stash list", &[], &[], false),
    ("git commit -m \"$(cat <<'EOF'\nFix the parser (don't > split)\n\nCo-Authored-By: Claude\nEOF\n)\"", &[], &[], false),
    ("cat <<EOF | python3 -\nimport os\nos.remove('x') if 1 > 0 else None\nEOF", &[], &[], false),
    ("cat ./README.md ./docs/a.md", &["README.md", "docs/a.md"], &[], false),
    ("head -n 50 README.md", &["README.md"], &[], false),
    ("tail -f logs/app.log", &["logs/app.log"], &[], false),
    ("wc -l < src/main.rs", &["src/main.rs"], &[], false),
    ("sed -n '1,20p' src/main.rs", &["src/main.rs"], &[], false),
    ("source .venv/bin/activate && pip install -r requirements.txt", &[".venv/bin/activate"], &[], false),
    ("diff <(cat a.txt) <(cat b.txt)", &["a.txt", "b.txt"], &[], false),
    // Writes by redirection.
    ("echo hi > out.txt", &[], &["out.txt"], true),
    ("echo hi>>log/a.log", &[], &["log/a.log"], true),
    ("echo hi >| forced.txt", &[], &["forced.txt"], true),
    ("make &> build.log", &[], &["build.log"], true),
    ("make &>> build.log", &[], &["build.log"], true),
    ("npm test >& test.log", &[], &["test.log"], true),
    ("cargo test 2> err.txt 1>&2", &[], &["err.txt"], true),
    ("exec 2> trace.log", &[], &["trace.log"], true),
    ("exec 3<> state.db", &["state.db"], &["state.db"], true),
    ("sort < in.txt > sorted.txt", &["in.txt"], &["sorted.txt"], true),
    ("printf '%s\\n' a b > \"my file.txt\"", &[], &["my file.txt"], true),
    ("x=$(mktemp) && echo hi > \"$x\"", &[], &["$x"], true),
    ("ls ~/.config > files.txt # > not-this.txt", &[], &["files.txt"], true),
    ("echo $((3 > 2)) > result.txt", &[], &["result.txt"], true),
    ("head -c 100 /dev/urandom > rand.bin", &[], &["rand.bin"], true),
    ("git log --oneline | head -n 5 > recent.txt", &[], &["recent.txt"], true),
    ("tail -n 100 app.log | grep ERROR > errors-only.log", &["app.log"], &["errors-only.log"], true),
    ("diff -u a.txt b.txt > fix.diff", &["a.txt", "b.txt"], &["fix.diff"], true),
    ("(cd web && npm run build) > build.log 2>&1", &[], &["build.log"], true),
    ("{ echo a; echo b; } > both.txt", &[], &["both.txt"], true),
    ("cat > notes.md <<'EOF'\nline > fake.txt\nrm -rf /\nEOF\necho done >> log.txt", &[], &["notes.md", "log.txt"], true),
    ("cat <<-EOF > tabbed.txt\n\tx > y\n\tEOF\necho after", &[], &["tabbed.txt"], true),
    ("pytest -q 2>&1 | tee test-output.txt", &[], &["test-output.txt"], true),
    ("echo x | sudo tee -a /etc/hosts > /dev/null", &[], &["/etc/hosts"], true),
    // Writes by the program.
    ("touch a b && mkdir -p d/e", &[], &["a", "b", "d/e"], true),
    ("mkdir -m 700 private && touch private/key", &[], &["private", "private/key"], true),
    ("rm -rf target/tmp; mv old.rs new.rs", &[], &["target/tmp", "old.rs", "new.rs"], true),
    ("rmdir empty-dir", &[], &["empty-dir"], true),
    ("cp -r src/a.rs ./backup/", &["src/a.rs"], &["backup/"], true),
    ("install -m 755 build/baton bin/baton", &["build/baton"], &["bin/baton"], true),
    ("ln -sf ../lib/x.so lib.so", &["../lib/x.so"], &["lib.so"], true),
    ("sed -i 's/a/b/' src/lib.rs src/x.rs", &["src/lib.rs", "src/x.rs"], &["src/lib.rs", "src/x.rs"], true),
    ("sed -i.bak -e 's/a/b/' f.txt", &["f.txt"], &["f.txt"], true),
    ("ls | tee -a listing.txt copy.txt", &[], &["listing.txt", "copy.txt"], true),
    ("FOO=1 sudo tee /etc/x.conf < in", &["in"], &["/etc/x.conf"], true),
    ("env FOO=1 touch stamp", &[], &["stamp"], true),
    ("timeout 10 cargo test > test.out", &[], &["test.out"], true),
    ("chmod +x scripts/run.sh", &[], &["scripts/run.sh"], true),
    ("truncate -s 0 app.log", &[], &["app.log"], true),
    ("dd if=/dev/zero of=disk.img bs=1M count=10", &[], &["disk.img"], true),
    ("curl -fsSL https://example.invalid/x.tgz -o x.tgz", &[], &["x.tgz"], true),
    ("wget -O get.sh https://example.invalid/get.sh", &[], &["get.sh"], true),
    ("sort -u names.txt -o names.txt", &["names.txt"], &["names.txt"], true),
    ("echo `rm -f stale.lock`", &[], &["stale.lock"], true),
    ("for f in *.md; do cp \"$f\" backup/; done", &["$f"], &["backup/"], true),
    ("if [ -f x ]; then rm x; fi", &[], &["x"], true),
    ("find . -name '*.tmp' -print0 | xargs -0 rm -f", &[], &[], true),
    // Changes without a named file.
    ("git checkout -- src/lib.rs", &[], &[], true),
    ("git -C sub checkout main", &[], &[], true),
    ("git stash", &[], &[], true),
    ("git apply fix.patch", &[], &[], true),
    ("git rebase -i HEAD~3", &[], &[], true),
    ("patch -p1 < fix.diff", &["fix.diff"], &[], true),
];

#[test]
fn issue_35_what_real_commands_read_and_write() {
    assert!(CASES.len() >= 60, "{}", CASES.len());
    let mut wrong = Vec::new();
    for (cmd, reads, writes, changes) in CASES {
        let e = effects(cmd);
        if (e.reads != *reads, e.writes != *writes, e.changes) != (false, false, *changes) {
            wrong.push(format!(
                "{cmd:?}: reads {:?}, writes {:?}, changes {}",
                e.reads, e.writes, e.changes
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn at_most_ten_paths_each_once() {
    let many: Vec<String> = (0..30).map(|i| format!("touch f{i}")).collect();
    let e = effects(&many.join("; "));
    assert_eq!(e.writes.len(), 10);
    assert_eq!(effects("touch a; touch ./a").writes, ["a"]);
}

#[test]
fn redirections_keep_their_files_and_heredoc_bodies_are_not_commands() {
    let cmds = commands("cat > out.md <<EOF\nrm -rf /\nEOF\nls");
    let words: Vec<&[String]> = cmds.iter().map(|c| c.words.as_slice()).collect();
    assert_eq!(words, [&["cat".to_string()][..], &["ls".to_string()][..]]);
    assert_eq!(cmds[0].redirects[0].target, "out.md");
}

fn words(line: &str) -> Vec<Vec<String>> {
    commands(line).into_iter().map(|c| c.words).collect()
}

#[test]
fn words_quotes_escapes_and_separators() {
    assert_eq!(
        words("printf \"a    b\\n\" | grep -c 'a  \"b' && echo a\\ b; x=$'it\\'s' ls &"),
        [
            vec!["printf", "a    b\\n"],
            vec!["grep", "-c", "a  \"b"],
            vec!["echo", "a b"],
            vec!["x=it's", "ls"]
        ]
    );
    assert_eq!(
        words("a || b |& c\nd # e > f\n(g) ; {h;}"),
        [
            vec!["a"],
            vec!["b"],
            vec!["c"],
            vec!["d"],
            vec!["g"],
            vec!["{h"],
            vec!["}"]
        ]
    );
}

#[test]
fn substitutions_are_commands_and_words() {
    let cmds = commands("echo \"$(cat <<'EOF'\n(a) don't > b\nEOF\n)\" > out; y=`rm z`");
    assert_eq!(cmds[0].words, ["cat"]);
    assert_eq!(cmds[1].words[0], "echo");
    assert_eq!(cmds[1].redirects[0].target, "out");
    assert_eq!(cmds[2].words, ["rm", "z"]);
    assert_eq!(cmds[3].words, ["y=`rm z`"]);
    assert_eq!(words("echo $((1 > 0)); (( x > 3 ))").len(), 2);
    assert!(commands("[[ a > b ]] && x")
        .iter()
        .all(|c| c.redirects.is_empty()));
}

#[test]
fn deep_nesting_stays_bounded() {
    // No stack overflow: past its depth limit a `$(` is text of its word.
    let cmds = commands(&"$(".repeat(100_000));
    assert_eq!(cmds[0].words, ["$"]);
}

#[test]
fn programs_past_assignments_wrappers_and_reserved_words() {
    let prog = |l: &str| {
        let cmds = commands(l);
        cmds.first()
            .and_then(|c| c.program())
            .map(|(p, a)| format!("{p} {}", a.join(" ")))
    };
    assert_eq!(
        prog("FOO=1 sudo -u me /bin/cp a b").as_deref(),
        Some("cp a b")
    );
    assert_eq!(prog("timeout -s 9 10 rm x").as_deref(), Some("rm x"));
    assert_eq!(
        prog("env A=b nice -n 5 touch f").as_deref(),
        Some("touch f")
    );
    assert_eq!(prog("! then do git status").as_deref(), Some("git status"));
    assert_eq!(prog("A=1"), None);
}
