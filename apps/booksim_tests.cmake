# cycle_sim --booksim FILE [key=value ...] (docs/booksim_files.md) on BookSim2's own
# example files (tests/data/booksim/, copied from its src/examples/), and
# cycle_sim --trace FILE (docs/traces.md). Included from apps/CMakeLists.txt.
set(booksim_data ${PROJECT_SOURCE_DIR}/tests/data/booksim)
# A short run: sample periods of 200 cycles, at most 8 (BookSim's own are 1,000 and 10).
set(booksim_short sample_period=200 max_samples=8)

# Each example that maps runs (those refused as they are, with the overrides that lift the refusal).
fabric_check(NAME app.cycle_sim.booksim.torus88
             COMMAND cycle_sim --booksim ${booksim_data}/torus88 ${booksim_short}
             MATCH "offered 0\\.1[45][0-9]* accepted 0\\.1[45][0-9]* flits/cycle/node; latency mean [0-9.]+"
                   "window: [0-9]+ cycles from cycle [0-9]+, chosen in [0-9]+ sample periods")
fabric_check(NAME app.cycle_sim.booksim.mesh88_lat
             COMMAND cycle_sim --booksim ${booksim_data}/mesh88_lat num_vcs=1 input_speedup=1 ${booksim_short}
             MATCH "offered 0\\.(09|10)[0-9]* accepted 0\\.(09|10)[0-9]* flits/cycle/node; latency mean [0-9.]+")
# mesh88_lat with one VC, uniform, periods of 10,000 cycles: BookSim2 65.57 over seeds 0-15 (28f43299,
# `./booksim mesh88_lat input_speedup=1 num_vcs=1 traffic=uniform sample_period=10000 seed=S`); within 3%.
add_test(NAME app.cycle_sim.booksim.mesh88_lat_one_vc COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:cycle_sim>
         -DFILE=${booksim_data}/mesh88_lat "-DKEYS=num_vcs=1;input_speedup=1;traffic=uniform;sample_period=10000"
         "-DSEEDS=0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15" -DEXPECTED=65.57 -DPERCENT=3
         -P ${CMAKE_CURRENT_SOURCE_DIR}/booksim_mean.cmake)
# BookSim lets a packet take any VC of a mesh at every hop (--vc-choice any): mesh88_lat with 2 VCs, uniform
# traffic, BookSim2's latency averaged over seeds 0-3 is 55.51 cycles (54.51, 55.49, 55.32, 56.70; BookSim2
# 28f43299, `./booksim mesh88_lat input_speedup=1 traffic=uniform num_vcs=2 seed=S`); within 3%.
add_test(NAME app.cycle_sim.booksim.mesh88_lat_any_vc COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:cycle_sim>
         -DFILE=${booksim_data}/mesh88_lat "-DKEYS=num_vcs=2;input_speedup=1;traffic=uniform" "-DSEEDS=0;1;2;3"
         -DEXPECTED=55.51 -DPERCENT=3 -P ${CMAKE_CURRENT_SOURCE_DIR}/booksim_mean.cmake)
fabric_check(NAME app.cycle_sim.booksim.fattree_config
             COMMAND cycle_sim --booksim ${booksim_data}/fattree_config num_vcs=1 hold_switch_for_packet=0 ${booksim_short}
             MATCH "offered 0\\.6[0-9]* accepted 0\\.[0-9]+ flits/cycle/terminal; latency mean [0-9.]+")
fabric_check(NAME app.cycle_sim.booksim.flatflyconfig
             COMMAND cycle_sim --booksim ${booksim_data}/flatflyconfig use_noc_latency=0 num_vcs=1 ${booksim_short}
             MATCH "offered 0\\.(09|10)[0-9]* accepted 0\\.(09|10)[0-9]* flits/cycle/terminal; latency mean [0-9.]+")

# The examples as they are: each refused, status 2, naming every key (and its line) cycle_sim cannot honour.
fabric_check(NAME app.cycle_sim.booksim.mesh88_lat_refused EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/mesh88_lat
             MATCH "fabric: [^\n]*mesh88_lat:40: num_vcs = 8: cycle_sim builds a mesh or a flatfly of 1 or 2 VCs"
                   "fabric: [^\n]*mesh88_lat:54: input_speedup = 2: cycle_sim models BookSim's default 1 of this key only")
fabric_check(NAME app.cycle_sim.booksim.dragonflyconfig_refused EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/dragonflyconfig
             MATCH "fabric: [^\n]*dragonflyconfig:53: internal_speedup = 2\\.0: cycle_sim models BookSim's default 1\\.0")
# BookSim's dragonflynew (1,056 terminals; local channels 10 cycles, global 100, credits over them) at 0.01:
# BookSim2 gives 137.67 cycles (docs/booksim_files.md); within 1%.
fabric_check(NAME app.cycle_sim.booksim.dragonflyconfig
             COMMAND cycle_sim --booksim ${booksim_data}/dragonflyconfig internal_speedup=1.0 injection_rate=0.01
             MATCH "latency mean 13[6-8]\\.[0-9]+ [^\n]*; hops 2\\.[67][0-9]; not saturated")
fabric_check(NAME app.cycle_sim.booksim.dragonflyconfig_ugal_vcs EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/dragonflyconfig internal_speedup=1.0 routing_function=ugal
             MATCH "num_vcs = 2: BookSim's dragonflynew routes ugal on 3 VCs")
# fattree_config as it is: 4 VCs, any a hop (--vc-choice any), hold_switch_for_packet = 1 with 1-flit packets
# (no hold). It runs and takes its load; its latency is 13% above BookSim2's at the file's 0.6 flits (31.25
# against 27.61 over seeds 0-3; docs/booksim_files.md), within 0.2% at 0.25 and at 0.02.
fabric_check(NAME app.cycle_sim.booksim.fattree_config_as_is
             COMMAND cycle_sim --booksim ${booksim_data}/fattree_config ${booksim_short}
             MATCH "offered 0\\.(59|60)[0-9]* accepted 0\\.(59|60)[0-9]* flits/cycle/terminal; latency mean [0-9.]+[^\n]*not saturated")
# Below the contention it has, 4 VCs at 0.25 flits: BookSim2 20.20 cycles over seeds 0-3 (20.20, 20.20, 20.19,
# 20.21; `./booksim fattree_config injection_rate=0.25 seed=S`); within 3%.
add_test(NAME app.cycle_sim.booksim.fattree_any_vc COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:cycle_sim>
         -DFILE=${booksim_data}/fattree_config "-DKEYS=injection_rate=0.25" "-DSEEDS=0;1;2;3" -DEXPECTED=20.20
         -DPERCENT=3 -P ${CMAKE_CURRENT_SOURCE_DIR}/booksim_mean.cmake)
fabric_check(NAME app.cycle_sim.booksim.fattree_config_refused EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/fattree_config num_vcs=2 packet_size=4
             MATCH "fabric: command line: num_vcs = 2: cycle_sim builds a fat tree of 1 or 4 VCs"
                   "fabric: [^\n]*fattree_config:28: hold_switch_for_packet = 1: cycle_sim holds no switch for a packet")
fabric_check(NAME app.cycle_sim.booksim.flatflyconfig_refused EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/flatflyconfig
             MATCH "fabric: [^\n]*flatflyconfig: use_noc_latency = 1 \\(BookSim's default; the file does not set it\\)"
                   "fabric: [^\n]*flatflyconfig:33: num_vcs = 8: ")
fabric_check(NAME app.cycle_sim.booksim.cmeshconfig_refused EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/cmeshconfig
             MATCH "fabric: [^\n]*cmeshconfig:30: topology = cmesh: cycle_sim builds torus, mesh, fattree, flatfly, dragonflynew and anynet")
fabric_check(NAME app.cycle_sim.booksim.singleconfig_refused EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/singleconfig
             MATCH "fabric: [^\n]*singleconfig:29: topology = fly: ")
# BookSim's anynet example: three routers joined in a triangle, three terminals each (its anynet_file, found beside
# the configuration). Uniform traffic, self included as BookSim's is: 6 of 9 destinations are one router hop away.
fabric_check(NAME app.cycle_sim.booksim.anynet_config
             COMMAND cycle_sim --booksim ${booksim_data}/anynet_config
             MATCH "flits/cycle/terminal; latency mean [0-9.]+ [^\n]*; hops 0\\.6[4-9]; not saturated")
fabric_check(NAME app.cycle_sim.booksim.anynet_no_file EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/anynet_config network_file=no_such_file
             MATCH "fabric: cannot open graph file 'no_such_file'")

# Keys and values refused when given as overrides: a key BookSim2 does not have, one whose only honoured value is
# BookSim's default, values outside what a translated key can do, and the list syntax where one value is meant.
fabric_check(NAME app.cycle_sim.booksim.unknown_key EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/torus88 flit_size=4
             MATCH "fabric: command line: flit_size: not a key of BookSim2 \\(src/booksim_config.cpp\\) that cycle_sim knows")
fabric_check(NAME app.cycle_sim.booksim.refused_values EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/torus88 router=event sim_type=throughput
                     routing_function=valiant num_vcs=4 traffic=diagonal injection_rate={0.1,0.2} seed=time
                     warmup_thres=0.1
             MATCH "fabric: command line: router = event: cycle_sim models BookSim's default iq of this key only"
                   "fabric: command line: sim_type = throughput: cycle_sim's sampler judges latency and throughput together"
                   "fabric: command line: routing_function = valiant: on a torus cycle_sim routes dim_order"
                   "fabric: command line: num_vcs = 4: a torus here has 2 VCs"
                   "fabric: command line: traffic = diagonal: cycle_sim has uniform"
                   "fabric: command line: injection_rate = [{]0\\.1,0\\.2[}]: one rate"
                   "fabric: command line: seed = time: give a number"
                   "fabric: [^\n]*torus88: acc_warmup_thres = 0\\.05 \\(BookSim's default; the file does not set it\\): cycle_sim's sampler has one threshold")
# A syntax error is named by its file and line.
fabric_check(NAME app.cycle_sim.booksim.syntax_error EXIT 2
             COMMAND cycle_sim --booksim ${booksim_data}/bad_syntax.cfg
             MATCH "fabric: [^\n]*bad_syntax\\.cfg:3: expected ';' after the value of 'k'")
fabric_check(NAME app.cycle_sim.booksim.no_file EXIT 2 COMMAND cycle_sim --booksim ${booksim_data}/absent
             MATCH "fabric: cannot open --booksim file '[^\n]*absent': No such file or directory")

# One translation checked by hand, every setting: mesh88_lat with its refusals lifted.
#   topology = mesh, k = 8, n = 2                  --topology mesh --dims 8,8
#   routing_function = dor                         --routing dor
#   num_vcs = 1 (override)                         --vcs 1 --injection-queues 1
#   vc_buf_size = 8                                --vc-buf 8
#   wait_for_tail_credit = 1                       --wait-for-tail-credit
#   vc_allocator = islip, sw_allocator = islip     --allocator islip
#   credit_delay = 2                               --credit-delay 4 (the credit channel's cycle, and the cycle
#                                                  between its write and its read, added)
#   routing_delay = 0, vc_alloc_delay = 1,
#   sw_alloc_delay = 1, st_final_delay = 1 (default) --router-delay 0,1,1,1
#   traffic = transpose                            --pattern transpose
#   packet_size = 20                               --packet 20
#   injection_rate = 0.005 packets                 --rate 0.1 (flits: 0.005 x 20)
#   use_noc_latency (default 1; a mesh's are 1)    --link-latency 1
#   sim_type = latency; BookSim's defaults         --warmup-periods 3 --sample-period 1000 --max-samples 10
#                                                  --latency-thres 500 --warmup-thres 0.05 --stopping-thres 0.05
#   seed (default 0)                               --seeds 0
# and from --preset booksim-iq: terminal channels 2,1, head turnaround 1; an option given (--seeds 7) wins.
fabric_check(NAME app.cycle_sim.booksim.translation
             COMMAND cycle_sim --booksim ${booksim_data}/mesh88_lat num_vcs=1 input_speedup=1 --seeds 7 --dump-config
             MATCH "\"topology\": \"mesh\"" "\"dims\": \\[\n  8,\n  8\n \\]" "\"routing\": \"dor\"" "\"vcs\": 1,"
                   "\"injection_queues\": 1," "\"vc_buf\": 8," "\"wait_for_tail_credit\": true" "\"allocator\": \"islip\""
                   "\"credit_delay\": 4," "\"router_delay\": \\[\n  0,\n  1,\n  1,\n  1\n \\]"
                   "\"pattern\": \"transpose\"" "\"packet\": \"20\"" "\"rate\": 0\\.1,"
                   "\"warmup_periods\": 3," "\"sample_period\": 1000," "\"max_samples\": 10," "\"latency_thres\": 500\\.0,"
                   "\"warmup_thres\": 0\\.05," "\"stopping_thres\": 0\\.05," "\"seeds\": \\[\n  7\n \\]"
                   "\"terminal_latency\": \\[\n  2,\n  1\n \\]" "\"head_turnaround\": 1," "\"preset\": \"booksim-iq\""
                   "\"speculative\": false" "\"link_latency\": 1,")
# BookSim's torus channels (credits' too) take 2 cycles under its default use_noc_latency = 1, 1 without it; a
# credit is read a cycle after its channel's latency (credit_delay = 0: 3 and 2).
fabric_check(NAME app.cycle_sim.booksim.torus_channels
             COMMAND cycle_sim --booksim ${booksim_data}/torus88 --dump-config
             MATCH "\"link_latency\": 2," "\"credit_delay\": 3," "\"dateline\": \"whole-ring\"" "\"rate\": 0\\.15,")
fabric_check(NAME app.cycle_sim.booksim.torus_channels_noc_off
             COMMAND cycle_sim --booksim ${booksim_data}/torus88 use_noc_latency=0 --dump-config
             MATCH "\"link_latency\": 1," "\"credit_delay\": 2,")

# --trace: tests/data/small_trace.csv on an 8-node ring (dor-positive, 2-flit packets, the library's default router):
# 0 -> 2, 64 bytes = 4 flits in two packets over 2 hops: the first tail at 15, the second 3 cycles behind: 18;
# 3 -> 4, one flit over 1 hop: 2 pipelines of 4 and a link: 9; 5 -> 1 (class 1), one flit over 4 hops: 5 x 4 + 4 = 24.
fabric_check(NAME app.cycle_sim.trace
             COMMAND cycle_sim --trace ${PROJECT_SOURCE_DIR}/tests/data/small_trace.csv --dims 8 --routing dor-positive
                     --packet 2 --class-priority 0,1
             MATCH "message,cycle,source,destination,flits,class,latency\n0,0,0,2,4,0,18\n1,100,3,4,1,0,9\n2,200,5,1,1,1,24\n"
                   "# 3 messages delivered, 0 lost; latency mean 17\\.00 ")
fabric_check(NAME app.cycle_sim.trace_bad_terminal EXIT 2
             COMMAND cycle_sim --trace ${PROJECT_SOURCE_DIR}/tests/data/small_trace.csv --dims 4 --class-priority 0,1
             MATCH "fabric: [^\n]*small_trace\\.csv:4: terminal 4 is past the network's 4 terminals")
