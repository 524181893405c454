#pragma once
/// The collections layer in one include: N-D collections of migratable elements, their proxies,
/// mappers, location management and phase instrumentation.
#include <tessera/collections/flags.hpp>
#include <tessera/collections/phase.hpp>
#include <tessera/collections/proxy.hpp>
