#!/bin/sh
# baton's bootstrap: puts baton's binary in place for a plugin installed from a marketplace,
# with no Rust toolchain (docs/install.md). bin/baton, the stub, runs it:
#
#   bootstrap.sh session-start VERSION DATA    SessionStart before the binary is in place:
#                                              install, then answer the hook with the binary
#   bootstrap.sh cli VERSION DATA [ARGS...]    a command before the install: install, run it
#   bootstrap.sh mcp VERSION DATA              `baton mcp` before the install: install (or
#                                              wait for SessionStart's), then serve; never fail
#   bootstrap.sh install VERSION DATA          install only; prints one line (what happened)
#
# The binary goes to DATA/bin/baton-VERSION (DATA is ${CLAUDE_PLUGIN_DATA}, which plugin
# updates keep), from the first of:
#   1. a baton of exactly this version on your PATH (your own build: cargo install), copied;
#   2. a download of <download-url>/baton-VERSION-TARGET that matches the sha256 pinned in
#      install/SHA256SUMS: fetched to a temp file in the same folder, checked, then renamed,
#      so a failed or refused download leaves no binary behind.
# Then bin/baton (the stub) is replaced by that binary (a hard link), so hooks start it
# directly; not in a git checkout, whose tracked files baton leaves alone (there the stub
# runs it).
#
# SessionStart has 10 seconds: the install runs in its own process, and the hook waits for
# it BATON_INSTALL_WAIT seconds (default 7). A download still running then goes on in the
# background, and the hook says so; the hooks that come after it find the binary. Every
# failure is one line, with the fix, and exits 0: a hook never errors because of this.
# POSIX sh only: it runs under dash, bash, busybox and macOS's sh.

set -u

mode=${1-}
version=${2-}
data=${3-}
[ $# -ge 3 ] && shift 3
# Only an absolute folder is used: never a path relative to wherever the hook runs.
case $data in /*) ;; *) data= ;; esac
case $0 in
*/*) here=${0%/*} ;;
*) here=. ;;
esac
root=$(cd "$here/.." 2>/dev/null && pwd -P) || root=$here/..
# Without a data folder these name nothing (never /bin): install_binary says why and stops.
bindir=${data:+$data/bin}
bin=${bindir:+$bindir/baton-$version}
lock=${bindir:+$bindir/.install.lock}
repo=https://github.com/baton-dev/baton
build_hint="build it from source (cargo install --locked --git $repo --tag v$version), then start a new session"
# Before any release is published there is nothing to download: say what works today.
no_release="no binary of baton $version is published yet, so baton stays off. Fix: install Rust (https://rustup.rs), run cargo install --locked --git $repo baton, then start a new session; or remove the plugin: claude plugin uninstall baton@baton"

nap() {
    sleep 0.1 2>/dev/null || sleep 1
}

# One line, JSON-string-safe, on stdout.
say() {
    printf '%s' "$*" | tr '\n\r\t' '   '
    printf '\n'
}

json_escape() {
    printf '%s' "$1" | sed 's/[\\"]/\\&/g' | tr -d '\n\r' | tr '\t' ' '
}

# The Rust target triple of this machine's release binary.
detect_target() {
    case $(uname -m 2>/dev/null) in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) return 1 ;;
    esac
    case $(uname -s 2>/dev/null) in
    Linux) printf '%s\n' "$arch-unknown-linux-gnu" ;;
    Darwin) printf '%s\n' "$arch-apple-darwin" ;;
    *) return 1 ;;
    esac
}

# Whether SHA256SUMS pins any release binary at all (a version released for some machine).
any_pinned() {
    [ -f "$root/install/SHA256SUMS" ] || return 1
    while read -r sum rest; do
        case $sum in '' | '#'*) continue ;; esac
        return 0
    done <"$root/install/SHA256SUMS"
    return 1
}

# The sha256 pinned for file name $1, or status 1.
pinned_sum() {
    [ -f "$root/install/SHA256SUMS" ] || return 1
    while read -r sum file rest; do
        case $sum in '' | '#'*) continue ;; esac
        file=${file#\*}
        [ "$file" = "$1" ] || continue
        [ ${#sum} -eq 64 ] || return 1
        case $sum in *[!0-9a-f]*) return 1 ;; esac
        printf '%s\n' "$sum"
        return 0
    done <"$root/install/SHA256SUMS"
    return 1
}

# The download URL's base: BATON_DOWNLOAD_URL, else install/download-url's first line that
# is not a comment; {version} is replaced.
download_base() {
    base=${BATON_DOWNLOAD_URL-}
    if [ -z "$base" ] && [ -f "$root/install/download-url" ]; then
        while IFS= read -r line; do
            case $line in '' | '#'*) continue ;; esac
            base=$line
            break
        done <"$root/install/download-url"
    fi
    printf '%s\n' "$base" | sed "s/{version}/$version/g"
}

# Downloads $1 to $2 with curl or wget; on failure prints the tool's first error line.
fetch() {
    if command -v curl >/dev/null 2>&1; then
        err=$(curl -fsSL --connect-timeout 10 --max-time 600 -o "$2" "$1" 2>&1) && return 0
        printf '%s\n' "${err:-curl failed}" | head -n 1
        return 1
    fi
    if command -v wget >/dev/null 2>&1; then
        err=$(wget -nv -T 30 -O "$2" "$1" 2>&1) && return 0
        printf '%s\n' "${err:-wget failed}" | tail -n 1
        return 1
    fi
    printf 'neither curl nor wget is installed\n'
    return 2
}

# The sha256 of file $1 with whichever tool this machine has.
sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        out=$(sha256sum "$1") || return 1
    elif command -v shasum >/dev/null 2>&1; then
        out=$(shasum -a 256 "$1") || return 1
    elif command -v openssl >/dev/null 2>&1; then
        out=$(openssl dgst -sha256 -r "$1") || return 1
    else
        return 2
    fi
    printf '%s\n' "${out%% *}"
}

# The file path $1 names once every symbolic link is followed, in its real folder (links
# and `..` resolved): where it really is. Status 1 when that cannot be told.
real_file() {
    f=$1
    n=0
    while [ -L "$f" ]; do
        n=$((n + 1))
        [ "$n" -le 40 ] || return 1
        t=$(readlink "$f" 2>/dev/null) || return 1
        case $t in /*) f=$t ;; *) f=${f%/*}/$t ;; esac
    done
    d=$(cd "${f%/*}" 2>/dev/null && pwd -P) || return 1
    printf '%s/%s\n' "$d" "${f##*/}"
}

# Whether file $1 is an executable of this machine's system by its first bytes: ELF on
# Linux, Mach-O on macOS. Anything else is not run: a text file without a #! line would run
# under sh, and print what it likes.
native_executable() {
    head4=$(LC_ALL=C dd if="$1" bs=4 count=1 2>/dev/null) || return 1
    case $(uname -s 2>/dev/null) in
    Linux) [ "$head4" = "$(printf '\177ELF')" ] ;;
    Darwin)
        for m in '\0317\0372\0355\0376' '\0316\0372\0355\0376' '\0312\0376\0272\0276'; do
            [ "$head4" = "$(printf '%b' "$m")" ] && return 0
        done
        return 1
        ;;
    *) return 1 ;;
    esac
}

# A baton of exactly this version on PATH: your own build. Only absolute PATH entries are
# looked at, and only a program that is not inside the project, compared by real paths (a
# repository cannot plant one, not even behind a link or a linked project folder), that is
# an executable of this machine (no script: another install's stub, or a file that prints
# what it likes), and that says it is this version.
find_local_build() {
    project=${CLAUDE_PROJECT_DIR:-$PWD}
    project=$(cd "$project" 2>/dev/null && pwd -P) || return 1
    old_ifs=$IFS
    IFS=:
    set -f
    for dir in $PATH; do
        IFS=$old_ifs
        case $dir in /*) ;; *) continue ;; esac
        c=$dir/baton
        [ -f "$c" ] && [ -x "$c" ] || continue
        real=$(real_file "$c") || continue
        case $real in "$project"/*) continue ;; esac
        native_executable "$real" || continue
        out=$("$real" --version 2>/dev/null </dev/null) || continue
        if [ "$out" = "baton $version" ]; then
            set +f
            printf '%s\n' "$real"
            return 0
        fi
    done
    set +f
    IFS=$old_ifs
    return 1
}

# The install lock: one install at a time per data folder. A holder that died leaves a lock
# whose pid is gone; it is taken over.
take_lock() {
    tries=0
    while ! mkdir "$lock" 2>/dev/null; do
        holder=
        [ -f "$lock/pid" ] && IFS= read -r holder <"$lock/pid"
        if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
            rm -rf "$lock"
            continue
        fi
        if [ -z "$holder" ] && [ "$tries" -ge 50 ]; then
            rm -rf "$lock"
            continue
        fi
        tries=$((tries + 1))
        [ "$tries" -ge 6000 ] && return 1
        nap
    done
    printf '%s\n' "$$" >"$lock/pid"
    return 0
}

# The binary is in place: a stable name for your PATH, a note of where it is for the stub,
# and bin/baton replaced by the binary itself (atomic rename; not in a git checkout). A hard
# link, not a symbolic one: the plugin folder keeps working if the data folder goes (Claude
# Code removes it on uninstall), and it costs no space; a copy where the two folders are on
# different file systems.
place() {
    ln -sfn "baton-$version" "$bindir/baton" 2>/dev/null
    printf '%s\n' "$data" >"$root/install/data-dir" 2>/dev/null
    if [ -e "$root/.git" ] || [ -e "$root/../.git" ]; then
        return 0
    fi
    link=$root/bin/.baton.link.$$
    rm -f "$link"
    if ln "$bin" "$link" 2>/dev/null || { cp "$bin" "$link" && chmod 755 "$link"; } 2>/dev/null; then
        mv -f "$link" "$root/bin/baton" 2>/dev/null || rm -f "$link"
    else
        rm -f "$link"
    fi
    return 0
}

# Older versions beyond the newest three go (a session still running an old plugin version
# keeps its binary meanwhile).
prune() {
    n=0
    set -f
    # shellcheck disable=SC2045 # baton's own names (baton-<version>), newest first by ls -t
    for f in $(ls -t "$bindir" 2>/dev/null); do
        case $f in baton-*) ;; *) continue ;; esac
        n=$((n + 1))
        [ "$n" -le 3 ] && continue
        [ "$f" = "baton-$version" ] && continue
        rm -f "$bindir/$f"
    done
    set +f
}

# Installs the binary; prints one line: "ok: …" or "baton: <what failed>. Fix: …".
install_binary() {
    case $data in
    /*) ;;
    *)
        say "baton: no folder to install its binary in (neither CLAUDE_PLUGIN_DATA nor HOME is set). Fix: start Claude Code from a normal login shell."
        return 1
        ;;
    esac
    if ! (umask 077 && mkdir -p "$bindir") 2>/dev/null; then
        say "baton: cannot create $bindir; baton's hooks stay off. Fix: check that folder's permissions, then start a new session."
        return 1
    fi
    if ! take_lock; then
        say "baton: another install has held $lock for 10 minutes. Fix: remove that folder if no Claude Code session is starting, then start a new session."
        return 1
    fi
    tmp=$bindir/.baton-$version.tmp.$$
    trap 'rm -f "$tmp"; rm -rf "$lock"' EXIT
    trap 'exit 1' HUP INT TERM
    if [ -f "$bin" ] && [ -x "$bin" ]; then
        place
        say "ok: baton $version is installed at $bin"
        return 0
    fi
    # Under the lock, any temp file is a leftover of an install that was killed; a result
    # note older than a day, of a SessionStart that stopped waiting.
    rm -f "$bindir"/.baton-*.tmp.*
    find "$bindir" -name '.result.*' -mtime +0 -exec rm -f {} + 2>/dev/null
    if local_build=$(find_local_build); then
        if cp "$local_build" "$tmp" && chmod 755 "$tmp" && mv -f "$tmp" "$bin"; then
            place
            say "ok: installed your build $local_build (baton $version) at $bin"
            return 0
        fi
        say "baton: could not copy $local_build to $bin. Fix: check the free space and permissions of $bindir, then start a new session."
        return 1
    fi
    if ! any_pinned; then
        say "baton: $no_release."
        return 1
    fi
    if ! target=$(detect_target); then
        say "baton: there is no prebuilt baton for this machine ($(uname -s 2>/dev/null) $(uname -m 2>/dev/null)); baton's hooks stay off. Fix: $build_hint."
        return 1
    fi
    name=baton-$version-$target
    if ! expected=$(pinned_sum "$name"); then
        say "baton: no release binary $name is pinned in $root/install/SHA256SUMS; baton's hooks stay off. Fix: $build_hint."
        return 1
    fi
    base=$(download_base)
    url=${base%/}/$name
    if ! err=$(fetch "$url" "$tmp"); then
        rm -f "$tmp"
        say "baton: could not download $url ($err); baton's hooks stay off until it is installed. Fix: check the connection (or BATON_DOWNLOAD_URL) and start a new session, or $build_hint."
        return 1
    fi
    actual=$(sha256_of "$tmp")
    case $? in
    0) ;;
    *)
        rm -f "$tmp"
        say "baton: cannot check the download: none of sha256sum, shasum or openssl is installed; nothing was installed. Fix: install one of them and start a new session, or $build_hint."
        return 1
        ;;
    esac
    if [ "$actual" != "$expected" ]; then
        rm -f "$tmp"
        say "baton: refused the download of $name: its sha256 is $actual, but the plugin pins $expected ($root/install/SHA256SUMS); nothing was installed. Fix: start a new session to retry; if it happens again, $url is not the release (check BATON_DOWNLOAD_URL and any proxy), or $build_hint."
        return 1
    fi
    if ! { chmod 755 "$tmp" && mv -f "$tmp" "$bin"; }; then
        rm -f "$tmp"
        say "baton: could not put the binary at $bin. Fix: check the free space and permissions of $bindir, then start a new session."
        return 1
    fi
    place
    prune
    say "ok: installed baton $version ($target) at $bin, verified against install/SHA256SUMS"
    return 0
}

# Appends one result line to DATA/bin/install.log (read by baton doctor); the newest 50 are
# kept, so a machine where every start fails does not grow it without end.
log_result() {
    [ -d "$bindir" ] || return 0
    log=$bindir/install.log
    printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ 2>/dev/null)" "$1" >>"$log" 2>/dev/null
    # wc pads its count with spaces on macOS; arithmetic takes it either way.
    lines=$(wc -l <"$log" 2>/dev/null) || lines=0
    if [ $((lines + 0)) -gt 100 ]; then
        tail -n 50 "$log" >"$log.tmp.$$" 2>/dev/null && mv -f "$log.tmp.$$" "$log"
    fi
    return 0
}

# Runs the install as its own process, with its own pid (the lock's owner), away from this
# one's stdin and stdout, so it can outlive it; waits for it up to $1 seconds. Sets msg to
# its one line, or to a note that it goes on in the background.
install_and_wait() {
    msg=
    if [ -z "$data" ] || ! (umask 077 && mkdir -p "$bindir") 2>/dev/null; then
        msg=$(install_binary)
        return 0
    fi
    result=$bindir/.result.$$
    : >"$result"
    # It writes its one line last: a non-empty result means it is done.
    /bin/sh "$0" install "$version" "$data" </dev/null >"$result" 2>/dev/null &
    job=$!
    ticks=$(($1 * 10))
    while [ "$ticks" -gt 0 ] && [ ! -s "$result" ] && kill -0 "$job" 2>/dev/null; do
        nap
        ticks=$((ticks - 1))
    done
    if [ ! -s "$result" ] && kill -0 "$job" 2>/dev/null; then
        msg="baton: downloading baton $version in the background (slow connection); its hooks start as soon as it is in place, in this session. Nothing to do."
        return 0
    fi
    IFS= read -r msg <"$result"
    rm -f "$result"
}

# An MCP server with no tools, for a session that started before the binary was in place:
# Claude Code remembers a server that failed to start (for 15 minutes, 2.1.197) and would
# not start the real one in the sessions after the install; this one starts, answers
# initialize, ping and tools/list (empty), and stops with the session. The next session
# starts the binary's. One JSON-RPC message a line; only what it must read is read.
serve_placeholder() {
    while IFS= read -r line || [ -n "$line" ]; do
        id=$(printf '%s\n' "$line" | sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p')
        [ -n "$id" ] || id=$(printf '%s\n' "$line" | sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\("[A-Za-z0-9_.:-]*"\).*/\1/p')
        # A notification (no id) is never answered.
        [ -n "$id" ] || continue
        method=$(printf '%s\n' "$line" | sed -n 's/.*"method"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
        case $method in
        initialize)
            proto=$(printf '%s\n' "$line" | sed -n 's/.*"protocolVersion"[[:space:]]*:[[:space:]]*"\([0-9-]*\)".*/\1/p')
            printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"%s","capabilities":{"tools":{}},"serverInfo":{"name":"baton","version":"%s"}}}\n' \
                "$id" "${proto:-2025-06-18}" "$version"
            ;;
        ping) printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id" ;;
        tools/list) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}\n' "$id" ;;
        *)
            printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"baton is not installed yet; its tools come with the next session"}}\n' "$id"
            ;;
        esac
    done
    exit 0
}

case $mode in
install)
    line=$(install_binary)
    status=$?
    log_result "$line"
    printf '%s\n' "$line"
    exit "$status"
    ;;
session-start)
    wait_secs=${BATON_INSTALL_WAIT:-7}
    case $wait_secs in '' | *[!0-9]*) wait_secs=7 ;; esac
    install_and_wait "$wait_secs"
    if [ -f "$bin" ] && [ -x "$bin" ]; then
        exec "$bin" hook SessionStart
    fi
    [ -n "$msg" ] || msg="baton: the install of its binary stopped without a message. Fix: $build_hint."
    cat >/dev/null
    printf '{"systemMessage":"%s"}\n' "$(json_escape "$msg")"
    exit 0
    ;;
mcp)
    # Installs, or waits for the install SessionStart runs at the same time, within Claude
    # Code's 30-second connect timeout; then the binary serves. Never an error.
    wait_secs=${BATON_MCP_WAIT:-20}
    case $wait_secs in '' | *[!0-9]*) wait_secs=20 ;; esac
    if ! { [ -f "$bin" ] && [ -x "$bin" ]; }; then
        install_and_wait "$wait_secs"
        [ -n "$msg" ] && printf '%s\n' "$msg" >&2
    fi
    if [ -f "$bin" ] && [ -x "$bin" ]; then
        exec "$bin" mcp
    fi
    serve_placeholder
    ;;
cli)
    if ! { [ -f "$bin" ] && [ -x "$bin" ]; }; then
        printf 'baton: installing baton %s first\n' "$version" >&2
        line=$(/bin/sh "$0" install "$version" "$data" </dev/null)
        printf '%s\n' "$line" >&2
    fi
    if [ -f "$bin" ] && [ -x "$bin" ]; then
        exec "$bin" "$@"
    fi
    exit 1
    ;;
*)
    printf 'usage: bootstrap.sh session-start|cli|mcp|install VERSION DATA [ARGS...]\n' >&2
    exit 2
    ;;
esac
