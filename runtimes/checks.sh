# Shell helpers of the runtime test suites (runtimes/openmpi/test.sh, runtimes/openmpi/mpich.sh,
# runtimes/cluster/test.sh): one line per check (`ok   NAME` or `FAIL NAME …` with the last
# lines of what failed), the counts, and the closing line `SUITE: N passed, M failed`.
#
#   . "$ROOT/runtimes/checks.sh"     after setting LOGS (a directory for each check's output)
#
# Variables: LOGS (required), CHECK_TIMEOUT (seconds a checked command may take, default 300),
# GBA_BIN and GBA_FABRIC (for `completed`). Sets passed, failed and LAST_LOG.
passed=0
failed=0
LAST_LOG=

say() { printf '%s\n' "$*"; }

# build_host_stack: what the runtime suites run, built from the repository at $ROOT: the C
# library in release (the barrier is what the suites exercise) and the gba tool in the dev
# profile (target/debug/gba; the suites only create, inspect and destroy fabrics with it, and
# the dev build is the one `cargo test` already made: a release build of the tool and its
# spec parsers would cost minutes of CPU for nothing the suites measure).
build_host_stack() { (cd "$ROOT" && cargo build --release -q -p gba-barrier-c && cargo build -q -p gba); }

# indent: what follows a FAIL line (stdin), set off from the check lines
indent() { sed 's/^/     /'; }

# ok NAME / not_ok TEXT: count one check (not_ok's details, if any, follow on stdout)
ok() { passed=$((passed + 1)); say "ok   $1"; }
not_ok() { failed=$((failed + 1)); say "FAIL $1"; }

# check NAME COMMAND...: the command must exit 0 within CHECK_TIMEOUT; its output goes to
# LAST_LOG (a file of its own in LOGS)
check() {
    local name=$1 rc=0; shift
    LAST_LOG="$LOGS/$(printf '%s' "$name" | tr -c 'A-Za-z0-9' '_').log"
    timeout "${CHECK_TIMEOUT:-300}" "$@" >"$LAST_LOG" 2>&1 || rc=$?
    if [ $rc = 0 ]; then
        ok "$name"
    else
        not_ok "$name (exit $rc); last lines of its output:"; tail -15 "$LAST_LOG" | indent
    fi
}

# expect_log NAME PATTERN: the last check's output contains PATTERN (grep -E)
expect_log() {
    if grep -Eq -- "$2" "$LAST_LOG"; then
        ok "$1"
    else
        not_ok "$1: output lacks /$2/"; tail -10 "$LAST_LOG" | indent
    fi
}

# expect_eq NAME GOT WANT
expect_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: got $2, want $3"; fi
}

# expect_distinct NAME A B LOG...: A and B are set and differ (two jobs' GBA groups); else the
# LOGS' last lines are shown
expect_distinct() {
    local name=$1 a=$2 b=$3; shift 3
    if [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]; then
        ok "$name ($a and $b)"
    else
        not_ok "$name: '$a' and '$b'"; tail -n 40 "$@" | indent # (a launcher's error is long)
    fi
}

# world_group LOG [SIZE]: the GBA group the job's MPI_COMM_WORLD got, from coll/gba_barrier's
# verbose line in LOG (empty when it fell back)
world_group() {
    sed -n "s/.*MPI_COMM_WORLD (cid 0, size ${2:-[0-9]*}): barrier on GBA group \([0-9]*\).*/\1/p" "$1" | head -1
}

# status_field FABRIC EXPR: a value from `gba sim status --json` of FABRIC (EXPR is Python
# over the document `s`)
status_field() {
    "$GBA_BIN" sim status --json --path "$1" | python3 -c "import json, sys; s = json.load(sys.stdin); print($2)"
}

# completed PORT: BARRIERS_COMPLETED of PORT on $GBA_FABRIC
completed() {
    status_field "$GBA_FABRIC" "s['port_reports'][$1]['barriers_completed']"
}

# expect_released NAME FABRIC: no group is left enabled on any port of FABRIC
expect_released() {
    local left
    left=$(status_field "$2" "len(s['groups'])")
    if [ "$left" = 0 ]; then
        ok "$1"
    else
        not_ok "$1: $left groups left enabled:"; "$GBA_BIN" sim status --path "$2" | indent
    fi
}

# summary SUITE: the closing line; fails when any check failed
summary() {
    say "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
