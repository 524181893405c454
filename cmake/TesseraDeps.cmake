# Every dependency comes from a Debian package (scripts/setup.sh installs them).
find_package(MPI REQUIRED COMPONENTS C)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(cereal REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(PkgConfig REQUIRED)
pkg_check_modules(BROTLI REQUIRED IMPORTED_TARGET libbrotlienc libbrotlidec)
# ISA-L: CRC-32C of checkpoint files (collections/checkpoint/checksum.hpp).
pkg_check_modules(ISAL REQUIRED IMPORTED_TARGET libisal)
