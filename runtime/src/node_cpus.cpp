#include "node_cpus.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace tessera::detail {
namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

// A number, or 0 when the text is not one (a file this code does not understand limits nothing).
double number(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return end != text.c_str() ? value : 0;
}

// The quota of one cgroup directory in CPUs, 0 when it sets none.
double quota_at(const std::string& dir, bool v2) {
  if (v2) {
    std::istringstream max(read_first_line(dir + "/cpu.max"));  // "max 100000" or "150000 100000"
    std::string quota;
    double period = 0;
    if (!(max >> quota >> period) || quota == "max" || period <= 0) return 0;
    const double q = number(quota);
    return q > 0 ? q / period : 0;
  }
  const std::string quota = read_first_line(dir + "/cpu.cfs_quota_us");
  const std::string period = read_first_line(dir + "/cpu.cfs_period_us");
  if (quota.empty() || period.empty()) return 0;
  const double q = number(quota);
  const double p = number(period);
  return q > 0 && p > 0 ? q / p : 0;
}

// The tightest quota from `path` up to the root of one hierarchy mounted at `mount`.
double tightest_quota(const std::string& mount, std::string path, bool v2) {
  double tightest = 0;
  while (true) {
    const double q = quota_at(mount + path, v2);
    if (q > 0) tightest = tightest > 0 ? std::min(tightest, q) : q;
    if (path.empty() || path == "/") break;
    const auto slash = path.find_last_of('/');
    path = slash == 0 || slash == std::string::npos ? "" : path.substr(0, slash);
  }
  return tightest;
}

}  // namespace

double cgroup_cpu_quota(const std::string& root, const std::string& proc_cgroup) {
  std::istringstream lines(proc_cgroup);
  std::string line;
  double tightest = 0;
  auto keep = [&tightest](double q) {
    if (q > 0) tightest = tightest > 0 ? std::min(tightest, q) : q;
  };
  while (std::getline(lines, line)) {
    // "hierarchy-id:controllers:path"; v2 is "0::path".
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) {
      keep(tightest_quota(root, path, true));
      keep(tightest_quota(root + "/unified", path, true));  // hybrid layouts
      continue;
    }
    std::istringstream names(controllers);
    std::string name;
    while (std::getline(names, name, ','))
      if (name == "cpu") {
        keep(tightest_quota(root + "/cpu", path, false));
        keep(tightest_quota(root + "/" + controllers, path, false));
        break;
      }
  }
  return tightest;
}

double cgroup_cpu_quota() {
  std::ifstream in("/proc/self/cgroup");
  std::stringstream text;
  text << in.rdbuf();
  return cgroup_cpu_quota("/sys/fs/cgroup", text.str());
}

int usable_cpus() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  int cpus = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 1;
  const double quota = cgroup_cpu_quota();
  if (quota > 0) cpus = std::min(cpus, static_cast<int>(std::ceil(quota - 1e-9)));
  return std::max(cpus, 1);
}

NodeCpus node_cpus(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  NodeCpus out;
  MPI_Comm_size(node, &out.node_ranks);
  MPI_Comm_rank(node, &out.node_rank);
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) out.host = host;
  // The union of the node's affinity masks: bound one core each or all free, the same CPUs.
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) CPU_SET(0, &mask);
  std::vector<unsigned char> bytes(sizeof mask);
  std::memcpy(bytes.data(), &mask, sizeof mask);
  MPI_Allreduce(MPI_IN_PLACE, bytes.data(), static_cast<int>(bytes.size()), MPI_UNSIGNED_CHAR, MPI_BOR, node);
  std::memcpy(&mask, bytes.data(), sizeof mask);
  double quota = cgroup_cpu_quota();
  if (quota <= 0) quota = 1e9;
  MPI_Allreduce(MPI_IN_PLACE, &quota, 1, MPI_DOUBLE, MPI_MIN, node);
  MPI_Comm_free(&node);
  out.cpus = std::max(1, std::min(CPU_COUNT(&mask), static_cast<int>(std::ceil(quota - 1e-9))));
  return out;
}

}  // namespace tessera::detail
