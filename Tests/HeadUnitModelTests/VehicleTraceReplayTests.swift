import Foundation
import HeadUnitModel
import SDLProtocol
import Testing

@Suite struct VehicleTraceReplayTests {
    /// Speed 10, 20, 30 at 0, 1, 2 s; a button press at 1.5 s.
    func smallTrace() throws -> OpenXCTrace {
        try VehicleFixture.trace(
            #"{"name":"vehicle_speed","value":10,"timestamp":100}"#,
            #"{"name":"engine_speed","value":900,"timestamp":100}"#,
            #"{"name":"vehicle_speed","value":20,"timestamp":101}"#,
            #"{"name":"engine_speed","value":900,"timestamp":101}"#,
            #"{"name":"button_event","value":"ok","event":"pressed","timestamp":101.5}"#,
            #"{"name":"button_event","value":"ok","event":"released","timestamp":101.5}"#,
            #"{"name":"vehicle_speed","value":30,"timestamp":102}"#
        )
    }

    @Test func pacesByElapsedTimeAndReportsOnlyChanges() throws {
        var replayer = TraceReplayer(trace: try smallTrace())
        #expect(replayer.advance(to: .zero) == [.vehicleData(["speed": 10.0, "rpm": 900])])
        #expect(replayer.advance(to: .milliseconds(999)).isEmpty)
        // The unchanged rpm is left out.
        #expect(replayer.advance(to: .seconds(1)) == [.vehicleData(["speed": 20.0])])
        #expect(
            replayer.advance(to: .milliseconds(1600)) == [
                .buttonEvent(name: "OK", mode: .buttonDown), .buttonEvent(name: "OK", mode: .buttonUp),
                .buttonPress(name: "OK", mode: .short),
            ])
        #expect(!replayer.isFinished)
        #expect(replayer.advance(to: .seconds(5)) == [.vehicleData(["speed": 30.0])])
        #expect(replayer.isFinished)
        #expect(replayer.advance(to: .seconds(50)).isEmpty)
        #expect(replayer.snapshot.values == ["speed": 30.0, "rpm": 900])
    }

    @Test func aLateCallGetsEverythingInOrderWithButtonsSplittingTheData() throws {
        var replayer = TraceReplayer(trace: try smallTrace())
        #expect(
            replayer.advance(to: .seconds(3)) == [
                .vehicleData(["speed": 20.0, "rpm": 900]),
                .buttonEvent(name: "OK", mode: .buttonDown), .buttonEvent(name: "OK", mode: .buttonUp),
                .buttonPress(name: "OK", mode: .short),
                .vehicleData(["speed": 30.0]),
            ])
    }

    @Test func speedFactorPlaysFaster() throws {
        var fast = TraceReplayer(trace: try smallTrace(), speedFactor: 4)
        #expect(fast.advance(to: .milliseconds(249)) == [.vehicleData(["speed": 10.0, "rpm": 900])])
        #expect(fast.advance(to: .milliseconds(250)) == [.vehicleData(["speed": 20.0])])
        #expect(fast.advance(to: .milliseconds(500)).mergedVehicleData == ["speed": 30.0])
        #expect(fast.isFinished)
        var slow = TraceReplayer(trace: try smallTrace(), speedFactor: 0.5)
        _ = slow.advance(to: .zero)
        #expect(slow.advance(to: .milliseconds(1999)).isEmpty)
        #expect(slow.advance(to: .seconds(2)) == [.vehicleData(["speed": 20.0])])
    }

    @Test func loopsAfterAGap() throws {
        var replayer = TraceReplayer(trace: try smallTrace(), loops: true, loopGap: .seconds(1))
        _ = replayer.advance(to: .seconds(2))
        #expect(replayer.snapshot["speed"] == 30.0)
        // Period: 2 s of trace + 1 s gap; the second pass starts at 3 s.
        #expect(replayer.advance(to: .milliseconds(2999)).isEmpty)
        #expect(replayer.advance(to: .seconds(3)) == [.vehicleData(["speed": 10.0])])
        #expect(replayer.completedLoops == 1)
        #expect(replayer.advance(to: .seconds(4)) == [.vehicleData(["speed": 20.0])])
        #expect(!replayer.isFinished)
        let buttons = replayer.advance(to: .milliseconds(4500))
        #expect(buttons.count == 3)
        // Far behind: whole passes are skipped, not replayed in a burst.
        let late = replayer.advance(to: .seconds(3000))
        #expect(late.buttons.count <= 6)
        #expect(replayer.completedLoops >= 998)
        #expect(replayer.advance(to: .milliseconds(3_000_100)).count <= 3)
    }

    @Test func baselineIsKeptForNamesTheTraceLacks() throws {
        let baseline = GeneratedDrive().sample(at: .zero)
        var replayer = TraceReplayer(trace: try smallTrace(), baseline: baseline)
        let first = replayer.advance(to: .zero)
        #expect(first.mergedVehicleData["speed"] == 10.0)
        #expect(replayer.snapshot["vin"] == baseline["vin"])
        #expect(try VehicleFixture.issues(replayer.snapshot).isEmpty)
    }

    @Test func shippedDemoTraceReplays() throws {
        let trace = try OpenXCTrace(contentsOfFile: VehicleFixture.demoDrive.path)
        #expect(trace.records.count > 300)
        #expect(trace.duration >= .seconds(55) && trace.duration <= .seconds(65))
        var replayer = TraceReplayer(trace: trace)
        var events: [SimulatedVehicleEvent] = []
        for tick in 0...700 {
            let due = replayer.advance(to: .milliseconds(tick * 100))
            for case .vehicleData(let values) in due {
                #expect(try VehicleFixture.issues(values).isEmpty)
            }
            events += due
        }
        #expect(replayer.isFinished)
        #expect(
            events.buttons == [
                .buttonEvent(name: "TUNEUP", mode: .buttonDown), .buttonEvent(name: "TUNEUP", mode: .buttonUp),
                .buttonPress(name: "TUNEUP", mode: .short),
                .buttonEvent(name: "OK", mode: .buttonDown), .buttonPress(name: "OK", mode: .long),
                .buttonEvent(name: "OK", mode: .buttonUp),
                .buttonEvent(name: "SEEKRIGHT", mode: .buttonDown), .buttonEvent(name: "SEEKRIGHT", mode: .buttonUp),
                .buttonPress(name: "SEEKRIGHT", mode: .short),
            ])
        let snapshot = replayer.snapshot
        #expect(try VehicleFixture.issues(snapshot).isEmpty)
        for name in [
            "speed", "rpm", "gps", "odometer", "fuelLevel", "fuelRange", "instantFuelConsumption", "prndl", "gearStatus",
            "headLampStatus", "driverBraking", "electronicParkBrakeStatus", "bodyInformation", "wiperStatus",
            "steeringWheelAngle", "accPedalPosition", "engineTorque",
        ] {
            #expect(snapshot[name] != nil, "\(name)")
        }
        #expect(snapshot["bodyInformation"]?["ignitionStatus"] == "RUN")
        #expect(snapshot["prndl"] == "THIRD")
    }

    @Test(.enabled(if: VehicleFixture.sharedTracesAvailable, "needs ../shared/traces/openxc"))
    func sharedTracesReplayFullyAndValidate() throws {
        for name in VehicleFixture.sharedTraceNames {
            let trace = try OpenXCTrace(contentsOfFile: VehicleFixture.openXCFolder.appendingPathComponent(name).path)
            #expect(!trace.records.isEmpty)
            // Every record on its own, then played at 10 Hz (these traces last a few seconds).
            var mapping = OpenXCMapping()
            for record in trace.records {
                for case .vehicleData(let values) in mapping.map(record) {
                    let issues = try VehicleFixture.issues(values)
                    #expect(issues.isEmpty, "\(name) line \(record.line): \(issues)")
                }
            }
            var replayer = TraceReplayer(trace: trace)
            var elapsed = Duration.zero
            var dataEvents = 0
            var buttons: [SimulatedVehicleEvent] = []
            while !replayer.isFinished {
                for event in replayer.advance(to: elapsed) {
                    if case .vehicleData(let values) = event {
                        dataEvents += 1
                        let issues = try VehicleFixture.issues(values)
                        #expect(issues.isEmpty, "\(name): \(issues)")
                    } else {
                        buttons.append(event)
                    }
                }
                elapsed += .milliseconds(100)
                #expect(elapsed < .seconds(3600), "\(name) never finishes")
                if elapsed >= .seconds(3600) { break }
            }
            #expect(try VehicleFixture.issues(replayer.snapshot).isEmpty)
            if name == "evented.json" {
                #expect(
                    buttons == [
                        .buttonEvent(name: "TUNEUP", mode: .buttonDown), .buttonEvent(name: "TUNEUP", mode: .buttonUp),
                        .buttonPress(name: "TUNEUP", mode: .short),
                    ])
            } else {
                #expect(dataEvents >= 5, "\(name)")
                for signal in ["speed", "rpm", "accPedalPosition", "engineTorque", "odometer", "gps", "fuelLevel", "steeringWheelAngle"] {
                    #expect(replayer.snapshot[signal] != nil, "\(name): \(signal)")
                }
            }
        }
    }
}
