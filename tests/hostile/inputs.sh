#!/usr/bin/env bash
# Inputs bounded and checked before they are read (docs/tools.md, "Inputs"): a file
# input must be a regular file (a directory, a FIFO, /dev/zero refused by name), is
# read within --input-limit, and a path the system cannot resolve (a name too long,
# a loop of links) is a fabric: message with status 2, never an abort.
#   inputs.sh CYCLE_SIM
. "$(dirname "$0")/lib.sh"
sim=$1
mkfifo pipe
mkdir folder
for option in --config --booksim --graph --trace; do
    extra=()
    [ "$option" = --graph ] && extra=(--topology graph)
    run "$sim" "${extra[@]}" "$option" /dev/zero
    expect_status 2 "$option /dev/zero"
    expect_err "'/dev/zero' is a character device, not a file to read" "$option /dev/zero"
    run "$sim" "${extra[@]}" "$option" pipe
    expect_status 2 "$option FIFO"
    expect_err "'pipe' is a pipe \(FIFO\), not a file to read" "$option FIFO"
    run "$sim" "${extra[@]}" "$option" folder
    expect_status 2 "$option directory"
    expect_err "'folder' is a directory, not a file to read" "$option directory"
done
# A BookSim file in a directory whose network_file is 5,000 characters long, or a loop of links.
mkdir bs
long=$(printf 'a%.0s' $(seq 5000))
printf 'topology = anynet;\nnetwork_file = %s;\nrouting_function = min;\nnum_vcs = 2;\n' "$long" >bs/long
run "$sim" --booksim bs/long
expect_status 2 "network_file of 5,000 characters"
expect_err "File name too long" "network_file of 5,000 characters"
[ "${#err}" -lt 1000 ] || fail "network_file of 5,000 characters: the message echoes it whole (${#err} characters)"
ln -s loop2 bs/loop1 && ln -s loop1 bs/loop2
printf 'topology = anynet;\nnetwork_file = loop1;\nrouting_function = min;\nnum_vcs = 2;\n' >bs/loop
run "$sim" --booksim bs/loop
expect_status 2 "network_file a loop of links"
expect_err "Too many levels of symbolic links" "network_file a loop of links"
# The limit: a configuration of 2 MB refused at --input-limit 1, read at 3.
{ printf '{"measure": 300, "warmup": 100, "dims": [4, 4]'; head -c 2000000 /dev/zero | tr '\0' ' '; printf '}'; } >big.json
run "$sim" --config big.json --input-limit 1
expect_status 2 "a configuration past --input-limit"
expect_err "fabric: --config file 'big.json' has 2000047 bytes, past the limit of 1048576 bytes for one input file; --input-limit MB raises it" \
    "a configuration past --input-limit"
run "$sim" --config big.json --input-limit 3
expect_status 0 "a configuration within --input-limit"
# A BookSim file's settings: --seed is --seeds, given on the command line it overrides the file's seed.
printf 'topology = torus;\nk = 4;\nn = 2;\nrouting_function = dim_order;\nnum_vcs = 2;\nseed = 5;\n' >bs/torus
run "$sim" --booksim bs/torus --seed 3 --dump-config
expect_status 0 "--booksim FILE --seed 3"
expect_json_out '"seeds":[3]' "--booksim FILE --seed 3"
# sample_period = 0 is no BookSim sampler, not cycle_sim's fixed window.
run "$sim" --booksim bs/torus sample_period=0
expect_status 2 "sample_period = 0"
expect_err "command line: sample_period = 0: a sample period is at least 1 cycle" "sample_period = 0"
# Paths a configuration gives are taken from its own directory, as BookSim takes its network_file, and
# --dump-config writes them absolute: a configuration given back from another directory finds its files.
mkdir -p net/runs elsewhere
printf '0 0 1 1\n1 0 2 1\n2 0 3 1\n3 0 0 1\n' >net/ring.graph
printf 'cycle,source,destination,flits\n0,0,2,1\n' >net/one.csv
printf '{"topology": "graph", "graph": "ring.graph", "trace": "one.csv", "packet": "1"}' >net/run.json
run "$sim" --config net/run.json
expect_status 0 "a configuration's relative paths"
expect_out '^0,0,0,2,1,0,[0-9]+$' "a configuration's relative paths"
(cd elsewhere && run "$sim" --topology graph --graph ../net/ring.graph --trace ../net/one.csv --dump-config \
    && printf '%s\n' "$out" >dumped.json)
(cd / && run "$sim" --config "$work/elsewhere/dumped.json" && printf '%s' "$out" >"$work/from_root.txt")
grep -Eq '^0,0,0,2,1,0,[0-9]+$' from_root.txt || { status=-1; fail "a dumped configuration run from /: $(head -c 300 from_root.txt)"; }
# A value of a megabyte (in a configuration file: an argument holds at most 128 KiB) is refused with a
# message of a few lines, not echoed whole; so is an argument of 100 kB.
run "$sim" --pattern "$(head -c 100000 /dev/zero | tr '\0' 'x')"
expect_status 2 "a pattern of 100 kB"
[ "${#err}" -lt 2000 ] || fail "a pattern of 100 kB: a message of ${#err} characters"
printf '{"pattern": "%s"}\n' "$(head -c 1000000 /dev/zero | tr '\0' 'x')" >big_value.json
run "$sim" --config big_value.json
expect_status 2 "a pattern of a megabyte in a configuration file"
[ "${#err}" -lt 2000 ] || fail "a pattern of a megabyte in a configuration file: a message of ${#err} characters"
finish
