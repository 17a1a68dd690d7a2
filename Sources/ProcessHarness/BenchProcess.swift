import Foundation

/// The simulator and the gateway as separate processes on 127.0.0.1, as users run them: started
/// from the `sdl-gateway` executable, their addresses read from the lines they print.
public final class BenchProcess {
    public let process: Process
    /// What it printed on standard output up to the line waited for.
    public let printed: String

    /// Starts `executable ARGUMENTS` and reads its standard output until a line matched each of
    /// `patterns` (regular expressions with one capture group each: what is returned, in order).
    public static func start(_ executable: String, _ arguments: [String], waitingFor patterns: [String]) throws -> (BenchProcess, [String])
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let expressions = try patterns.map { try NSRegularExpression(pattern: $0) }
        while true {
            if text.hasSuffix("\n") {
                let range = NSRange(text.startIndex..., in: text)
                let captures = expressions.compactMap { expression -> String? in
                    guard let match = expression.firstMatch(in: text, range: range), let captured = Range(match.range(at: 1), in: text)
                    else { return nil }
                    return String(text[captured])
                }
                if captures.count == patterns.count { return (BenchProcess(process: process, printed: text), captures) }
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty {
                throw BenchFailure(
                    description:
                        "\(URL(fileURLWithPath: executable).lastPathComponent) \(arguments.joined(separator: " ")) ended before printing \(patterns): \(text)"
                )
            }
            text += String(decoding: data, as: UTF8.self)
        }
    }

    private init(process: Process, printed: String) {
        self.process = process
        self.printed = printed
    }

    public var stats: ProcessStats { ProcessStats(pid: process.processIdentifier) }

    /// Sends `signal` (SIGKILL, SIGSTOP, SIGCONT …) to the process.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// What /proc says about a process: its CPU time and memory (0 where there is no /proc).
public struct ProcessStats: Sendable {
    public let pid: Int32

    public init(pid: Int32) {
        self.pid = pid
    }

    /// CPU seconds (user + system) used so far.
    public var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else {
            return 0
        }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based, man 5 proc).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory in KiB (VmRSS).
    public var residentKiB: Int { status("VmRSS:") }

    /// Peak resident memory in KiB (VmHWM).
    public var peakResidentKiB: Int { status("VmHWM:") }

    /// Open file descriptors (the entries of /proc/<pid>/fd; 0 where there is none).
    public var openFileDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// Threads (the entries of /proc/<pid>/task).
    public var threads: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
    }

    private func status(_ key: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = status.split(separator: "\n").first { $0.hasPrefix(key) }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    }
}

/// How the harness starts `sdl-gateway serve`: once for the run, and afresh for `scale`, whose
/// memory figures need a process that nothing else ran in.
public struct GatewayLauncher: Sendable {
    public let executable: String
    public let arguments: [String]

    public init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// The process, its `host:port` and port.
    public func start() throws -> (BenchProcess, String, Int) {
        let (process, addresses) = try BenchProcess.start(
            executable, arguments, waitingFor: [#"sdl-gateway on http://(127\.0\.0\.1:[0-9]+)"#])
        guard let port = addresses[0].split(separator: ":").last.flatMap({ Int($0) }) else {
            process.stop()
            throw BenchFailure(description: "unexpected gateway address \(addresses[0])")
        }
        return (process, addresses[0], port)
    }
}

/// Why a run stopped: what the harness met that it cannot measure through.
public struct BenchFailure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }

    /// Runs `body`; an error it throws comes back as a failure that names `step` first.
    public static func naming<Result>(_ step: String, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            throw BenchFailure(description: "\(step): \(error)")
        }
    }
}
