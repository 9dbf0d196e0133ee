//! The `baton` binary: parse the command line, run, exit with the code `run` chose.

fn main() {
    let code = baton::run(std::env::args_os());
    std::process::exit(code);
}
