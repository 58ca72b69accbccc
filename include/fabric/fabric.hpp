// Umbrella header: everything public, layer by layer. Library headers include
// only what they use; tests/layering.cmake checks that this reaches every header.
#pragma once


#include <fabric/core/error.hpp>
#include <fabric/core/ids.hpp>
#include <fabric/core/random.hpp>
#include <fabric/core/units.hpp>
#include <fabric/core/graph.hpp>
#include <fabric/core/incremental_dag.hpp>
#include <fabric/core/order_free_sum.hpp>
#include <fabric/core/translations.hpp>

#include <fabric/concepts/collective.hpp>
#include <fabric/concepts/flow_control.hpp>
#include <fabric/concepts/link.hpp>
#include <fabric/concepts/routing.hpp>
#include <fabric/concepts/topology.hpp>
#include <fabric/concepts/traffic.hpp>
#include <fabric/concepts/allocator.hpp>
#include <fabric/concepts/symmetry.hpp>
#include <fabric/concepts/workload.hpp>

#include <fabric/link/apenet.hpp>
#include <fabric/link/basic.hpp>
#include <fabric/link/percs.hpp>
#include <fabric/link/qcdoc_scu.hpp>

#include <fabric/topology/benes.hpp>
#include <fabric/topology/concentrated.hpp>
#include <fabric/topology/dragonfly.hpp>
#include <fabric/topology/extents.hpp>
#include <fabric/topology/hypercube.hpp>
#include <fabric/topology/fat_tree.hpp>
#include <fabric/topology/graph.hpp>
#include <fabric/topology/graph_file.hpp>
#include <fabric/topology/hyperx.hpp>
#include <fabric/topology/partition.hpp>
#include <fabric/topology/percs.hpp>
#include <fabric/topology/torus.hpp>

#include <fabric/routing/benes_looping.hpp>
#include <fabric/routing/benes_multicast.hpp>
#include <fabric/routing/channel_dependency.hpp>
#include <fabric/routing/dimension_order.hpp>
#include <fabric/routing/dragonfly.hpp>
#include <fabric/routing/dragonfly_ugal.hpp>
#include <fabric/routing/dragonfly_valiant.hpp>
#include <fabric/routing/ecube.hpp>
#include <fabric/routing/fat_tree.hpp>
#include <fabric/routing/graph_shortest_path.hpp>
#include <fabric/routing/hyperx_adaptive.hpp>
#include <fabric/routing/hyperx_dor.hpp>
#include <fabric/routing/minimal_adaptive.hpp>
#include <fabric/routing/nearest_neighbour.hpp>
#include <fabric/routing/omega.hpp>
#include <fabric/routing/percs.hpp>
#include <fabric/routing/percs_modes.hpp>
#include <fabric/routing/route.hpp>
#include <fabric/routing/vc_levels.hpp>
#include <fabric/routing/vc_rules.hpp>

#include <fabric/flow/ack_window.hpp>
#include <fabric/flow/apenet_credit.hpp>
#include <fabric/flow/credit.hpp>
#include <fabric/flow/synchronous.hpp>

#include <fabric/mapping/grid.hpp>
#include <fabric/mapping/named_pattern.hpp>
#include <fabric/mapping/patterns.hpp>
#include <fabric/mapping/standard_patterns.hpp>
#include <fabric/mapping/percs_mappings.hpp>
#include <fabric/mapping/permutations.hpp>
#include <fabric/mapping/placement.hpp>

#include <fabric/workload/endpoints.hpp>
#include <fabric/workload/goal.hpp>
#include <fabric/workload/graph.hpp>
#include <fabric/workload/matching.hpp>
#include <fabric/workload/placement.hpp>
#include <fabric/workload/text.hpp>

#include <fabric/composition.hpp>

#include <fabric/systems/apenet.hpp>
#include <fabric/systems/gf11.hpp>
#include <fabric/systems/percs.hpp>
#include <fabric/systems/qcdoc.hpp>

#include <fabric/sim/cycle.hpp>
#include <fabric/sim/flow_budget.hpp>
#include <fabric/sim/link_load.hpp>
#include <fabric/sim/link_load_result.hpp>
#include <fabric/sim/link_load_symmetric.hpp>
#include <fabric/sim/scu_link.hpp>
#include <fabric/sim/scu_machine.hpp>
#include <fabric/sim/statistics.hpp>
#include <fabric/sim/symmetry_checks.hpp>
#include <fabric/sim/trace_file.hpp>
#include <fabric/sim/workload.hpp>

#include <fabric/sim/analytic/apenet_efficiency.hpp>
#include <fabric/sim/analytic/apenet_host.hpp>
#include <fabric/sim/analytic/gf11_performance.hpp>
#include <fabric/sim/analytic/percs_alltoall.hpp>

#include <fabric/sim/presets/apenet.hpp>
#include <fabric/sim/presets/booksim.hpp>
#include <fabric/sim/presets/percs.hpp>
#include <fabric/sim/presets/percs_loads.hpp>

#include <fabric/collective/algorithms.hpp>
#include <fabric/collective/alpha_beta.hpp>
#include <fabric/collective/cau.hpp>
#include <fabric/collective/dimension_sum.hpp>
#include <fabric/collective/exchange.hpp>
#include <fabric/collective/expander.hpp>
#include <fabric/collective/graph.hpp>
#include <fabric/collective/kernel.hpp>
#include <fabric/collective/operation.hpp>
#include <fabric/collective/phases.hpp>
#include <fabric/collective/policies.hpp>
#include <fabric/collective/recursive.hpp>
#include <fabric/collective/ring.hpp>
#include <fabric/collective/scu_global.hpp>
#include <fabric/collective/shapes.hpp>
#include <fabric/collective/timing.hpp>
#include <fabric/collective/trees.hpp>
#include <fabric/collective/verify.hpp>
#include <fabric/collective/write.hpp>

#include <fabric/fault/lofamo.hpp>
#include <fabric/fault/lofamo_credits.hpp>
#include <fabric/fault/lofamo_cycle.hpp>
#include <fabric/fault/lofamo_descriptors.hpp>
#include <fabric/fault/lofamo_faults.hpp>
#include <fabric/fault/lofamo_link_health.hpp>
#include <fabric/fault/lofamo_registers.hpp>
#include <fabric/fault/lofamo_torus.hpp>

#include <fabric/experiment/channel_loads.hpp>
#include <fabric/experiment/estimate.hpp>
#include <fabric/experiment/records.hpp>
#include <fabric/experiment/saturation.hpp>
#include <fabric/experiment/sweep.hpp>
