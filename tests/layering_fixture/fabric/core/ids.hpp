#pragma once
#include <fabric/sim/kernel.hpp>
