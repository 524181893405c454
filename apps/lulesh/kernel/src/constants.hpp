#pragma once
/// The fixed parameters of LULESH's Sedov problem (the original hard-codes them in its Domain
/// constructor) and the per-face boundary flags of an element. Private to the kernel.
#include "tessera/lulesh/problem.hpp"

#include <cstdint>

namespace tessera::lulesh::detail {

// Cutoffs below which a value is taken as zero.
inline constexpr Real kECut = Real(1.0e-7);
inline constexpr Real kPCut = Real(1.0e-7);
inline constexpr Real kQCut = Real(1.0e-7);
inline constexpr Real kVCut = Real(1.0e-10);
inline constexpr Real kUCut = Real(1.0e-7);

inline constexpr Real kHgCoef = Real(3.0);  // Flanagan-Belytschko hourglass control
inline constexpr Real kQStop = Real(1.0e+12);
inline constexpr Real kMonoqMaxSlope = Real(1.0);
inline constexpr Real kMonoqLimiterMult = Real(2.0);
inline constexpr Real kQlcMonoq = Real(0.5);
inline constexpr Real kQqcMonoq = Real(2.0) / Real(3.0);
inline constexpr Real kQqc = Real(2.0);
inline constexpr Real kEosVMax = Real(1.0e+9);
inline constexpr Real kEosVMin = Real(1.0e-9);
inline constexpr Real kPMin = Real(0.);
inline constexpr Real kEMin = Real(-1.0e+15);
inline constexpr Real kDvovMax = Real(0.1);
inline constexpr Real kRefDens = Real(1.0);

// Two flags per face: a symmetry plane, a free surface, or a neighbour's ghost (comm).
inline constexpr std::int32_t kXiM = 0x00007;
inline constexpr std::int32_t kXiMSymm = 0x00001;
inline constexpr std::int32_t kXiMFree = 0x00002;
inline constexpr std::int32_t kXiMComm = 0x00004;
inline constexpr std::int32_t kXiP = 0x00038;
inline constexpr std::int32_t kXiPSymm = 0x00008;
inline constexpr std::int32_t kXiPFree = 0x00010;
inline constexpr std::int32_t kXiPComm = 0x00020;
inline constexpr std::int32_t kEtaM = 0x001c0;
inline constexpr std::int32_t kEtaMSymm = 0x00040;
inline constexpr std::int32_t kEtaMFree = 0x00080;
inline constexpr std::int32_t kEtaMComm = 0x00100;
inline constexpr std::int32_t kEtaP = 0x00e00;
inline constexpr std::int32_t kEtaPSymm = 0x00200;
inline constexpr std::int32_t kEtaPFree = 0x00400;
inline constexpr std::int32_t kEtaPComm = 0x00800;
inline constexpr std::int32_t kZetaM = 0x07000;
inline constexpr std::int32_t kZetaMSymm = 0x01000;
inline constexpr std::int32_t kZetaMFree = 0x02000;
inline constexpr std::int32_t kZetaMComm = 0x04000;
inline constexpr std::int32_t kZetaP = 0x38000;
inline constexpr std::int32_t kZetaPSymm = 0x08000;
inline constexpr std::int32_t kZetaPFree = 0x10000;
inline constexpr std::int32_t kZetaPComm = 0x20000;

}  // namespace tessera::lulesh::detail
