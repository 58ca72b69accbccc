// The flit-level cycle kernel: fabric::CycleSimulator<Fabric> and its parts, each
// in sim/cycle/ with one job:
//   config.hpp       CycleConfig, PipelineDelays, Switching, progress callback
//   result.hpp       CycleResult (the run counts into it), LatencySummary, DeadlockReport
//   shape.hpp        the run-time sizes every part is laid out by (routers, ports, VCs)
//   packet.hpp       flits, packets, source routes (RouteStore)
//   packets.hpp      the packet records and routes of a run (a part)
//   slot_pool.hpp    pools of packets and messages indexed by slot
//   ring_queue.hpp   source queues
//   links.hpp        channel wiring, latency and serialisation per link
//   event_wheel.hpp  the calendar of flit arrivals and flow-control feedback
//   framing.hpp      framed links (data and credit slots)
//   remote_channels.hpp  the channel kind whose far end is on another rank
//   channels.hpp     links, flow-control state and wires (a part)
//   input_buffers.hpp    input VCs: state, flit rings, front and blocked masks
//   output_queues.hpp    output queues between switch and link
//   occupancy.hpp    what adaptive routing reads of the routers' queues
//   allocators.hpp   the round-robin VC allocator
//   switch_allocators.hpp  switch allocator policies: SeparableSwitch, Islip<I>, ...
//   chosen_switch.hpp      ChosenSwitch<Tag, As...>: one of them picked at run time
//   router_allocation.hpp  a router's VC allocation and switch arbitration stages
//   routers.hpp      the routers: arrivals, the router step, the switch traversal (a part)
//   injection.hpp    Bernoulli and on/off arrivals, traces, source queues
//   sources.hpp      messages and packets into source queues (a part)
//   reassembly.hpp   messages put back together; packets overtaking per pair
//   losses.hpp       lost flits told at the end of the cycle, alike at every rank
//   sinks.hpp        ejection, reassembly, replies, losses applied (a part)
//   traffic_classes.hpp  traffic classes and their priorities
//   watch.hpp        the watch trace of chosen packets' flits
//   observer.hpp     what a run counts (a part)
//   failures.hpp     link failures and restores, broken-channel flags
//   memory.hpp       what a run may take in memory, known before it starts
//   watchdog.hpp     the deadlock watchdog's cadence and wait-for cycle search
//   deadlock_search.hpp  the watchdog's wait-for graph of stuck VCs
//   sampler.hpp      BookSim's converging sampler, the window it chooses
//   partition.hpp    a run's routers split over ranks: policies, transport, sums
//   lookahead.hpp    how long a split run's windows between exchanges may be, and where they end
//   requirements.hpp what the kernel asks of a fabric type; the one-sentence errors
//   core.hpp         the parts of a run and how they are joined, for a flow control and an allocator
//   kernel.hpp       a fabric type's kernel: its core, links and routing policy's answers
//   message_port.hpp the hook a driver injects messages through and reads sent and delivered from
//   run.hpp          a run's phases, in order, as a resumable object, and its derived figures
//   workloads.hpp    arrivals from a pattern, traces, and the checks before a run
//   dependency_engine.hpp  a workload graph driven through the message port
//   embedded.hpp     a run another simulator drives through the message port
//   workload_run.hpp run_workload: WorkloadOptions, WorkloadResult, the critical path
//   simulator.hpp    CycleSimulator: runs (Bernoulli, traces, workloads), failures, transport
#pragma once

#include <fabric/sim/cycle/allocators.hpp>
#include <fabric/sim/cycle/channels.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/deadlock_search.hpp>
#include <fabric/sim/cycle/dependency_engine.hpp>
#include <fabric/sim/cycle/embedded.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/failures.hpp>
#include <fabric/sim/cycle/framing.hpp>
#include <fabric/sim/cycle/injection.hpp>
#include <fabric/sim/cycle/input_buffers.hpp>
#include <fabric/sim/cycle/core.hpp>
#include <fabric/sim/cycle/kernel.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/lookahead.hpp>
#include <fabric/sim/cycle/losses.hpp>
#include <fabric/sim/cycle/memory.hpp>
#include <fabric/sim/cycle/message_port.hpp>
#include <fabric/sim/cycle/observer.hpp>
#include <fabric/sim/cycle/occupancy.hpp>
#include <fabric/sim/cycle/output_queues.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/packets.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/reassembly.hpp>
#include <fabric/sim/cycle/remote_channels.hpp>
#include <fabric/sim/cycle/requirements.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/ring_queue.hpp>
#include <fabric/sim/cycle/router_allocation.hpp>
#include <fabric/sim/cycle/routers.hpp>
#include <fabric/sim/cycle/run.hpp>
#include <fabric/sim/cycle/sampler.hpp>
#include <fabric/sim/cycle/shape.hpp>
#include <fabric/sim/cycle/simulator.hpp>
#include <fabric/sim/cycle/sinks.hpp>
#include <fabric/sim/cycle/slot_pool.hpp>
#include <fabric/sim/cycle/sources.hpp>
#include <fabric/sim/cycle/chosen_switch.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/cycle/watch.hpp>
#include <fabric/sim/cycle/watchdog.hpp>
#include <fabric/sim/cycle/workload_run.hpp>
#include <fabric/sim/cycle/workloads.hpp>
