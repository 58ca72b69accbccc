// The identity harness's configurations, in groups (one translation unit each,
// so that the groups compile in parallel): each group runs the configurations
// whose names pass `wanted` and prints their results (fields.hpp).
#pragma once

#include <functional>
#include <string>

namespace identity {

using Wanted = std::function<bool(const std::string&)>;

void routers_group(const Wanted& wanted);   // tori: allocators, pipelines, buffering, switching
void traffic_group(const Wanted& wanted);   // classes, replies, messages, bursts, sampler, traces, watch, limits
void families_group(const Wanted& wanted);  // dragonfly, HyperX, fat tree, graph, concentration, deadlock
void systems_group(const Wanted& wanted);   // PERCS, APEnet, QCDOC, failures, link errors, timing

}  // namespace identity
