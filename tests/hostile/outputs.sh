#!/usr/bin/env bash
# Outputs that lose nothing (docs/tools.md, "Outputs"): a symbolic link followed and
# its target replaced only when the run succeeds; /dev/stdout appended to a log
# never truncated; a closed or read-only descriptor refused before the run; an
# output that names an input or another output refused before the run; a FIFO
# written after the run.  outputs.sh CYCLE_SIM
. "$(dirname "$0")/lib.sh"
sim=$1
refused=(--dims 64,64 --memory-limit 1)        # refused before it runs: its buffers exceed 1 MB
quick=(--dims 4,4 --warmup 100 --measure 300)   # a run of a fraction of a second

# A symbolic link to a precious file: a refused run leaves it as it was; a run that
# succeeds replaces the target (the link stays a link), keeping the target's mode.
echo keep >precious.json
chmod 600 precious.json
ln -s precious.json link.json
run "$sim" "${refused[@]}" --output link.json
expect_status 2 "refused run through a link"
expect_file precious.json keep "refused run through a link"
run "$sim" "${quick[@]}" --format json --output link.json
expect_status 0 "run through a link"
[ -L link.json ] || fail "run through a link: link.json is no longer a link"
grep -q '"drained": true' precious.json || fail "run through a link: precious.json lacks the result"
[ "$(stat -c %a precious.json)" = 600 ] || fail "run through a link: precious.json's mode is $(stat -c %a precious.json)"
# A link to a link to a file in another directory; a dangling link creates its target.
mkdir sub && ln -s ../precious.json sub/one && ln -s sub/one two.json
run "$sim" "${quick[@]}" --output two.json
expect_status 0 "two links"
grep -q '^offered' precious.json || fail "two links: precious.json lacks the text result"
ln -s new_target.txt dangling.txt
run "$sim" "${quick[@]}" --output dangling.txt
expect_status 0 "dangling link"
[ -L dangling.txt ] && grep -q '^offered' new_target.txt || fail "dangling link: new_target.txt not written through it"
ln -s loop_a loop_b && ln -s loop_b loop_a
run "$sim" "${quick[@]}" --output loop_a
expect_status 2 "link loop"
expect_err "fabric: --output: cannot use 'loop_a': Too many levels of symbolic links" "link loop"
expect_no_temporaries "links"

# /dev/stdout on a log opened for appending: the log keeps its lines, refused run or not.
echo "first line" >log.txt
run sh -c "\"$sim\" ${refused[*]} --output /dev/stdout >>log.txt"
expect_status 2 "refused run to /dev/stdout appended to a log"
expect_file log.txt "first line" "refused run to /dev/stdout appended to a log"
run sh -c "\"$sim\" ${quick[*]} --output /dev/stdout >>log.txt"
expect_status 0 "run to /dev/stdout appended to a log"
[ "$(head -1 log.txt)" = "first line" ] && grep -q '^offered' log.txt || fail "run appended to a log: $(head -c 300 log.txt)"
# Standard output closed: no result written nowhere with status 0.
run sh -c "\"$sim\" ${quick[*]} --output /dev/stdout >&-"
expect_status 2 "/dev/stdout closed"
expect_err "fabric: --output: standard output is closed" "/dev/stdout closed"
run sh -c "\"$sim\" ${quick[*]} --output /dev/fd/1 >&-"
expect_status 2 "/dev/fd/1 closed"
run "$sim" "${quick[@]}" --output /dev/fd/9
expect_status 2 "/dev/fd/9 not open"
expect_err "fabric: --output: '/dev/fd/9' names descriptor 9, which is not open" "/dev/fd/9 not open"
run sh -c "\"$sim\" ${quick[*]} --output /dev/fd/3 3</dev/null"
expect_status 2 "/dev/fd/3 open for reading"
expect_err "names descriptor 3, which is open for reading only" "/dev/fd/3 open for reading"
run sh -c "\"$sim\" ${quick[*]} --node-stats /dev/fd/3 3>nodes.csv"
expect_status 0 "--node-stats to a descriptor the shell opened"
grep -q '^node,offered' nodes.csv || fail "--node-stats to a descriptor: nodes.csv lacks the table"

# An output that names an input, or two outputs that name one file (links followed): refused, the file untouched.
run "$sim" "${quick[@]}" --dump-config
printf '%s\n' "$out" >run.json
cp run.json run.json.kept
run "$sim" --config run.json --output run.json
expect_status 2 "--output naming --config"
expect_err "fabric: --output: 'run.json' is the file --config reads" "--output naming --config"
cmp -s run.json run.json.kept || fail "--output naming --config: run.json changed"
ln -s run.json config_link.json
run "$sim" --config run.json --output config_link.json
expect_status 2 "--output naming --config through a link"
cmp -s run.json run.json.kept || fail "--output naming --config through a link: run.json changed"
printf 'cycle,source,destination,flits\n0,0,5,4\n' >trace.csv
cp trace.csv trace.kept
run "$sim" --dims 4,4 --trace trace.csv --output ./trace.csv
expect_status 2 "--output naming --trace"
expect_err "is the file --trace reads" "--output naming --trace"
cmp -s trace.csv trace.kept || fail "--output naming --trace: trace.csv changed"
printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: recv 8b from 0\n}\n' >work.goal
cp work.goal work.kept
run "$sim" --dims 4,4 --workload work.goal --output work.goal
expect_status 2 "--output naming --workload"
expect_err "is the file --workload reads" "--output naming --workload"
cmp -s work.goal work.kept || fail "--output naming --workload: work.goal changed"
run "$sim" --dims 4,4 --workload /dev/zero
expect_status 2 "--workload /dev/zero"
expect_err "'/dev/zero' is a character device, not a file to read" "--workload /dev/zero"
run "$sim" "${quick[@]}" --output same.csv --node-stats same.csv
expect_status 2 "two outputs naming one file"
expect_err "fabric: --node-stats: 'same.csv' is the file --output writes" "two outputs naming one file"
[ ! -e same.csv ] || fail "two outputs naming one file: same.csv was written"
expect_no_temporaries "outputs naming inputs"

# A FIFO: written after the run, whole.
mkfifo results.fifo
cat results.fifo >from_fifo.txt &
reader=$!
run "$sim" "${quick[@]}" --output results.fifo
wait "$reader"
expect_status 0 "--output to a FIFO"
grep -q '^offered' from_fifo.txt || fail "--output to a FIFO: nothing read from it"
# A FIFO no process reads: refused before the run, not a wait for a reader forever.
mkfifo unread.fifo
run "$sim" "${quick[@]}" --output unread.fifo
expect_status 2 "--output to a FIFO nobody reads"
expect_err "fabric: --output: cannot write 'unread.fifo': no process reads this pipe" "--output to a FIFO nobody reads"
finish
