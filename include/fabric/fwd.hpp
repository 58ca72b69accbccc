// Declarations of the public templates and types, for headers that only name them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fabric {

// core/
class config_error;
class deadlock_error;
class Random;
struct Bytes;
struct Cycles;
struct Nanoseconds;
struct GBps;
struct MHz;

// link/
template <std::size_t VirtualChannels>
class BasicLink;
class QcdocScu;
template <std::size_t VirtualChannels>
class ApenetLinkT;

// topology/
struct DynamicExtents;
template <std::uint32_t... Ks>
struct StaticExtents;
enum class Boundary : std::uint8_t;

// routing/
struct Hop;
struct NoDateline;
struct Dateline;
enum class TieRule : std::uint8_t;
template <TieRule Tie, class VcRule>
struct DimensionOrder;
struct DependencyReport;

// flow/
struct Credit;

// composition
template <class Topo, class Routing, class Flow>
class Fabric;

// mapping/
class Grid;
class Placement;
class UniformTraffic;
class HaloTraffic;
class TransposeTraffic;
class BitComplementTraffic;
class TornadoTraffic;
class RandomPermutationTraffic;
class TrafficMatrix;

// collective/
struct DimensionWiseSum;

// sim/
struct ClassLoad;
class LinkLoads;

}  // namespace fabric
