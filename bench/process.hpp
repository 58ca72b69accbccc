// Runs a program as a child process with its standard output captured, for the
// benchmarks that time a tool as a whole process (POSIX fork and exec).
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace fabric_bench {

/// Runs `args` with its standard output captured; returns the output, and the
/// child's peak resident memory (MiB) and exit status through the references.
inline std::string run(const std::vector<std::string>& args, double& peak_mib, int& status) {
    int fds[2];
    if (pipe(fds) != 0) std::exit(2);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        std::vector<char*> argv;
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        std::perror(argv[0]);
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    peak_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;
    return out;
}

/// The MPI launcher CMake found (FABRIC_MPIEXEC, "mpiexec --oversubscribe") as words, and
/// Open MPI told that running as root is meant (it refuses otherwise; CI containers run as root).
inline std::vector<std::string> mpi_launcher(const std::string& command) {
    if (geteuid() == 0) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    std::vector<std::string> out;
    for (std::size_t at = 0; at < command.size();) {
        const auto end = std::min(command.find(' ', at), command.size());
        if (end > at) out.push_back(command.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

}  // namespace fabric_bench
