// The flit-level cycle kernel: fabric::CycleSimulator<Fabric> and its parts, each
// in sim/cycle/ with one job:
//   config.hpp       CycleConfig, PipelineDelays, Switching, progress callback
//   result.hpp       CycleResult (the run counts into it), LatencySummary, DeadlockReport
//   links.hpp        channel wiring, latency and serialisation per link
//   event_wheel.hpp  the calendar of flit arrivals and flow-control feedback
//   packet.hpp       flits, packets, source routes (RouteStore)
//   slot_pool.hpp    pools of packets and messages indexed by slot
//   ring_queue.hpp   source queues
//   reassembly.hpp   messages put back together; packets overtaking per pair
//   allocators.hpp   the round-robin VC allocator
//   switch_allocators.hpp  switch allocator policies: SeparableSwitch, Islip<I>
//   requirements.hpp what the kernel asks of a fabric type; the one-sentence errors
//   input_buffers.hpp input VCs: state, flit rings, front masks
//   output_queues.hpp output queues between switch and link
//   injection.hpp    Bernoulli arrivals, traces, source queues
//   failures.hpp     link failures and restores, broken-channel flags
//   framing.hpp      framed links (data and credit slots)
//   watchdog.hpp     the deadlock watchdog's cadence and wait-for cycle search
//   sampler.hpp      BookSim's converging sampler, the window it chooses
//   watch.hpp        the watch trace of chosen packets' flits
//   losses.hpp       lost flits told at the end of the cycle, alike at every rank
//   network.hpp      a run's state and how flits move between routers
//   partition.hpp    a run's routers split over ranks: policies, transport, sums
//   wires.hpp        flits and feedback onto links, to this rank or another
//   delivery.hpp     how packets leave: ejected and counted, or lost with a link
//   router.hpp       the router pipeline and the link stage
//   deadlock_search.hpp  the watchdog's wait-for graph of stuck VCs
//   creation.hpp     messages and packets into source queues
//   simulator.hpp    CycleSimulator: runs (Bernoulli, traces), failures, watchdog, results
#pragma once

#include <fabric/sim/cycle/allocators.hpp>
#include <fabric/sim/cycle/config.hpp>
#include <fabric/sim/cycle/creation.hpp>
#include <fabric/sim/cycle/deadlock_search.hpp>
#include <fabric/sim/cycle/delivery.hpp>
#include <fabric/sim/cycle/event_wheel.hpp>
#include <fabric/sim/cycle/failures.hpp>
#include <fabric/sim/cycle/framing.hpp>
#include <fabric/sim/cycle/injection.hpp>
#include <fabric/sim/cycle/input_buffers.hpp>
#include <fabric/sim/cycle/links.hpp>
#include <fabric/sim/cycle/losses.hpp>
#include <fabric/sim/cycle/network.hpp>
#include <fabric/sim/cycle/output_queues.hpp>
#include <fabric/sim/cycle/packet.hpp>
#include <fabric/sim/cycle/partition.hpp>
#include <fabric/sim/cycle/reassembly.hpp>
#include <fabric/sim/cycle/requirements.hpp>
#include <fabric/sim/cycle/result.hpp>
#include <fabric/sim/cycle/ring_queue.hpp>
#include <fabric/sim/cycle/router.hpp>
#include <fabric/sim/cycle/sampler.hpp>
#include <fabric/sim/cycle/simulator.hpp>
#include <fabric/sim/cycle/slot_pool.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>
#include <fabric/sim/cycle/traffic_classes.hpp>
#include <fabric/sim/cycle/watch.hpp>
#include <fabric/sim/cycle/watchdog.hpp>
#include <fabric/sim/cycle/wires.hpp>
