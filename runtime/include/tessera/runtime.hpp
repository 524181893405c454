#pragma once
/// The runtime layer in one include: Runtime (context, active messages, scheduler), collectives,
/// object groups and timers.
#include <tessera/runtime/collectives.hpp>
#include <tessera/runtime/objgroup.hpp>
#include <tessera/runtime/runtime.hpp>
#include <tessera/runtime/timer.hpp>
