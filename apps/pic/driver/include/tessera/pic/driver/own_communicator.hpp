#pragma once
/// A mode's own duplicate of the application's communicator, so its tags and collectives never
/// meet other traffic (the application's, or the Tessera runtime's). Freed on destruction.
#include <mpi.h>

namespace tessera::pic::driver {

class OwnCommunicator {
 public:
  /// Collective over `parent`.
  explicit OwnCommunicator(MPI_Comm parent) { MPI_Comm_dup(parent, &comm_); }
  ~OwnCommunicator() { MPI_Comm_free(&comm_); }
  OwnCommunicator(const OwnCommunicator&) = delete;
  OwnCommunicator& operator=(const OwnCommunicator&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace tessera::pic::driver
