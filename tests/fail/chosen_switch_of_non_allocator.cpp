// expect: fabric: ChosenSwitch<Tag, As
// An allocator picked at run time among types one of which is not a switch
// allocator (int has no stage): refused when the type is made. Among switch
// allocators it is accepted.
#include <fabric/sim/cycle/chosen_switch.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>

#ifdef FABRIC_MUST_NOT_COMPILE
struct Picked : fabric::ChosenSwitch<Picked, fabric::SeparableSwitch, int> {
#else
struct Picked : fabric::ChosenSwitch<Picked, fabric::SeparableSwitch, fabric::Wavefront> {
#endif
    static constexpr const char* name = "picked";
};
static_assert(sizeof(Picked::stage) > 0 && fabric::ChosenAtRunTime<Picked>);
