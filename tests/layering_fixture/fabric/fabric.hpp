#pragma once
#include <fabric/core/ids.hpp>
