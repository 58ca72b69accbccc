#!/usr/bin/env bash
# Ranks that agree (docs/tools.md, "Under mpirun"): a refusal on any rank ends every
# rank, with one message and the same status, instead of one rank waiting for
# another forever; what does not depend on the rank is printed once.
#   MPIEXEC="mpiexec -n" mpi.sh CYCLE_SIM PERCS_PACKET    (MPIEXEC takes the rank count after it)
. "$(dirname "$0")/lib.sh"
sim=$1 percs=$2
read -r -a launch <<<"$MPIEXEC"
# once TEXT WHAT: the last run's stderr holds TEXT exactly once (rank 0 says it).
once() {
    local n
    n=$(printf '%s' "$err" | grep -Fc -- "$1")
    [ "$n" -eq 1 ] || fail "$2: '$1' printed $n times"
}
for ranks in 2 3; do
    mpi=("${launch[@]}" "$ranks")
    # Outputs rank 0 alone opens: the refusal reaches every rank.
    run "${mpi[@]}" "$sim" --dims 4,4 --measure 300 --output /nonexistent/x.json
    expect_status 2 "$ranks ranks, --output in a missing folder"
    once "fabric: --output: cannot write '/nonexistent/x.json'" "$ranks ranks, --output in a missing folder"
    for option in --channel-stats --node-stats; do
        run "${mpi[@]}" "$sim" --dims 4,4 --measure 300 "$option" /nonexistent/x.csv
        expect_status 2 "$ranks ranks, $option in a missing folder"
        once "fabric: $option: cannot write '/nonexistent/x.csv'" "$ranks ranks, $option in a missing folder"
    done
    run "${mpi[@]}" "$sim" --dims 4,4 --measure 300 --sweep 0.1:0.2:0.1 --output /nonexistent/x.csv
    expect_status 2 "$ranks ranks, a sweep's --output in a missing folder"
    once "fabric: --output: cannot write" "$ranks ranks, a sweep's --output in a missing folder"
    run "${mpi[@]}" "$percs" --hotspot --warmup 100 --measure 100 --output /nonexistent/x.txt
    expect_status 2 "$ranks ranks, percs_packet --output in a missing folder"
    once "fabric: --output: cannot write" "$ranks ranks, percs_packet --output in a missing folder"
    # A refusal every rank makes alike: one message, status 2.
    run "${mpi[@]}" "$sim" --dims 4,4 --rate 7
    expect_status 2 "$ranks ranks, a load refused"
    once "fabric: offered load must be in" "$ranks ranks, a load refused"
    # A sweep point refused on whichever rank runs it: a refusal (2), not a fault (70).
    run "${mpi[@]}" "$sim" --dims 4,4 --measure 300 --sweep 1.5:1.5:1 --seeds 1,2
    expect_status 2 "$ranks ranks, a sweep point refused"
    once "fabric: offered load must be in" "$ranks ranks, a sweep point refused"
    # Printed once: the configuration, the version, the help.
    run "${mpi[@]}" "$sim" --dims 4,4 --dump-config
    expect_status 0 "$ranks ranks, --dump-config"
    n=$(printf '%s' "$out" | grep -c '"dims"')
    [ "$n" -eq 1 ] || fail "$ranks ranks, --dump-config: printed $n times"
    run "${mpi[@]}" "$sim" --version
    expect_status 0 "$ranks ranks, --version"
    n=$(printf '%s' "$out" | grep -c '^cycle_sim (fabric')
    [ "$n" -eq 1 ] || fail "$ranks ranks, --version: printed $n times"
    run "${mpi[@]}" "$sim" --help
    n=$(printf '%s' "$out" | grep -c -- '--dump-config')
    [ "$n" -eq 1 ] || fail "$ranks ranks, --help: printed $n times"
done
finish
