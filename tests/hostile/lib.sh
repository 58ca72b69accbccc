# What the scripts of tests/hostile/ share: a fresh directory, and checks that
# record each failure (with what the tool printed) and end the script with status 1
# if any failed. Each script is a CTest (apps/CMakeLists.txt: hostile.*).
set -u
work=$(mktemp -d "${TMPDIR:-/tmp}/fabric_hostile.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
out="" err="" status=0

# run CMD...: runs it (at most 120 s) with stdout and stderr captured in $out and $err, its status in $status.
run() {
    timeout -k 5 120 "$@" >"$work/.out" 2>"$work/.err"
    status=$?
    out=$(cat "$work/.out") err=$(cat "$work/.err")
}
fail() {
    echo "FAILED: $*"
    echo "  status $status; stdout: ${out:0:600}"
    echo "  stderr: ${err:0:1200}"
    failures=$((failures + 1))
}
# expect_status N WHAT: the last run ended with status N.
expect_status() { [ "$status" -eq "$1" ] || fail "$2: expected status $1"; }
# expect_err REGEX WHAT: the last run's stderr matches.
expect_err() { printf '%s' "$err" | grep -Eq -- "$1" || fail "$2: stderr lacks /$1/"; }
expect_out() { printf '%s' "$out" | grep -Eq -- "$1" || fail "$2: stdout lacks /$1/"; }
# expect_json_out TEXT WHAT: stdout, its blanks and line ends taken out, holds TEXT.
expect_json_out() { printf '%s' "$out" | tr -d ' \n' | grep -Fq -- "$1" || fail "$2: stdout lacks $1"; }
# expect_file FILE TEXT WHAT: FILE holds exactly TEXT.
expect_file() { [ "$(cat "$1" 2>/dev/null)" = "$2" ] || fail "$3: $1 holds '$(head -c 200 "$1" 2>/dev/null)', not '$2'"; }
# expect_no_temporaries WHAT: no hidden temporary file (.NAME.XXXXXX) is left in the directory.
expect_no_temporaries() {
    local left
    left=$(find "$work" -maxdepth 2 -name '.*.??????' -type f | head -5)
    [ -z "$left" ] || fail "$1: temporary files left: $left"
}
finish() {
    if [ "$failures" -gt 0 ]; then
        echo "$failures check(s) failed"
        exit 1
    fi
    echo "every check passed"
    exit 0
}
