#pragma once
/// Errors a user can cause, and the one way Tessera reports them.
///
/// Tessera distinguishes two kinds of failure:
/// - `tessera::Error`: an exception for invalid input found before any distributed state is
///   touched (a bad flag, a bad strategy argument, a malformed file). The caller may catch it.
///   It is the one type for what a user typed or wrote: its message names the flag, key or file
///   (subclasses add nothing but a name: `ArgumentError` for key=value arguments,
///   `lb::DataError` for LB data files, `InputError` for an application's or a tool's options,
///   `RunError` for what a job can only find once it runs, alike on every rank).
/// - `tessera::fatal()`: an unrecoverable error inside a running job (a send to a rank outside
///   the communicator, a handler that threw, an unknown handler id). It prints one message with
///   the rank and aborts the whole job with a non-zero exit on every rank, so nothing hangs.
/// A class constructed by code (not from input) with a value outside its documented range
/// throws what the standard library would (`std::invalid_argument`, `std::length_error`): that is
/// a bug in the calling code, not bad input, e.g. a deque of capacity 0.
#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace tessera {

/// An error in user input, with a message naming the input and what was expected.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Options of an application or a tool (lbsim, tessera-pic, tessera-lulesh, ...) that it cannot
/// run with, found before any step runs: the message names the option, its value and what was
/// expected, so a driver prints it as is and exits with status 2 on every rank.
class InputError : public Error {
 public:
  using Error::Error;
};

/// Input that a job can only find unusable once it runs, and finds alike on every rank (a restart
/// from a checkpoint of another problem, a kernel's fault such as LULESH's negative volume): the
/// driver prints it once and every rank exits with status 2.
class RunError : public Error {
 public:
  using Error::Error;
};

namespace detail {
[[noreturn]] void fatal_message(const std::string& message);
}  // namespace detail

/// Reports `fmt`-formatted message on this rank ("tessera error on rank R: ...") and aborts
/// every rank of the job with exit code 1 (MPI_Abort). Never returns.
template <class... Args>
[[noreturn]] void fatal(fmt::format_string<Args...> format, Args&&... args) {
  detail::fatal_message(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace tessera
