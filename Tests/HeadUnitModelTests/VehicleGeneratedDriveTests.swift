import Foundation
import HeadUnitModel
import SDLProtocol
import SDLSpec
import Testing

@Suite struct VehicleGeneratedDriveTests {
    let drive = GeneratedDrive()

    /// Ten minutes at 10 Hz: every sample is valid OnVehicleData and physically consistent.
    @Test func tenMinutesAtTenHertzAreValidAndConsistent() throws {
        var previous: VehicleDataSnapshot?
        var sawPark = false, sawDrive = false, sawBraking = false, sawMoving = false, sawTurn = false
        var maxSpeed = 0.0
        for tick in 0...6000 {
            let snapshot = drive.sample(at: .milliseconds(tick * 100))
            let issues = try VehicleFixture.issues(snapshot)
            #expect(issues.isEmpty, "t=\(Double(tick) / 10) s: \(issues)")
            if !issues.isEmpty { return }
            #expect(snapshot.names == GeneratedDrive.providedNames.sorted())

            let speed = try #require(snapshot["speed"]?.doubleValue)
            maxSpeed = max(maxSpeed, speed)
            let prndl = try #require(snapshot["prndl"]?.stringValue)
            if prndl == "PARK" {
                sawPark = true
                #expect(speed == 0, "moving in PARK at \(tick)")
                #expect(snapshot["rpm"]?.intValue ?? 0 < 1000)
            } else {
                sawDrive = true
                #expect(prndl == "DRIVE")
            }
            if speed > 1 { sawMoving = true }
            if snapshot["turnSignal"] != "OFF" { sawTurn = true }
            if snapshot["driverBraking"] == "YES" { sawBraking = true }
            if speed > 20 { #expect(snapshot["rpm"]?.intValue ?? 0 > 1000) }
            #expect(snapshot["gearStatus"]?["userSelectedGear"]?.stringValue == prndl)

            if let previous {
                let before = try #require(previous["odometer"]?.intValue)
                let after = try #require(snapshot["odometer"]?.intValue)
                #expect(after >= before && after - before <= 1)
                let speedBefore = previous["speed"]?.doubleValue ?? 0
                let allowed = max(speedBefore, speed) / 3.6 * 0.1
                let moved = VehicleFixture.metres(previous["gps"]!, snapshot["gps"]!)
                // The coordinates are rounded to 6 decimals (about 0.1 m).
                #expect(moved <= allowed * 1.02 + 0.25, "gps moved \(moved) m in 0.1 s at \(speed) km/h")
                #expect(abs(speed - speedBefore) <= 3.6 * 3.0 * 0.1 + 0.2, "speed jumps at \(tick)")
                let fuelBefore = previous["fuelLevel"]!.doubleValue!
                let fuel = snapshot["fuelLevel"]!.doubleValue!
                #expect(fuel <= fuelBefore + 0.05 || fuel > 99, "fuel rises at \(tick)")
                if speed < speedBefore - 0.01 { #expect(snapshot["driverBraking"] == "YES" || previous["driverBraking"] == "YES") }
            }
            previous = snapshot
        }
        #expect(sawPark && sawDrive && sawBraking && sawMoving && sawTurn)
        #expect(maxSpeed > 30 && maxSpeed < 95)
        let start = drive.sample(at: .zero)
        let end = drive.sample(at: .seconds(600))
        #expect(end["odometer"]!.intValue! - start["odometer"]!.intValue! >= 3)
        #expect(end["fuelLevel"]!.doubleValue! < start["fuelLevel"]!.doubleValue!)
        #expect(VehicleFixture.metres(start["gps"]!, end["gps"]!) > 50)
    }

    @Test func isDeterministicAndSeeded() {
        let again = GeneratedDrive()
        let other = GeneratedDrive(seed: 2)
        var differs = false
        for second in stride(from: 0, through: 300, by: 7) {
            #expect(drive.sample(at: .seconds(second)) == again.sample(at: .seconds(second)))
            if drive.sample(at: .seconds(second)) != other.sample(at: .seconds(second)) { differs = true }
        }
        #expect(differs)
    }

    @Test func loopsWithCumulativeOdometerAndParksAtEachCycleStart() throws {
        let cycle = drive.cycleDuration
        #expect(cycle > .seconds(120) && cycle < .seconds(600))
        let first = drive.sample(at: .seconds(1))
        let second = drive.sample(at: cycle + .seconds(1))
        #expect(first["prndl"] == "PARK")
        #expect(second["prndl"] == "PARK")
        #expect(second["speed"] == 0.0)
        #expect(second["odometer"]!.intValue! > first["odometer"]!.intValue!)
        #expect(first["gps"] != second["gps"])
    }

    @Test func stopsWithinADrivePhaseAreDriveWithTheBrakeHeld() throws {
        var heldAtLight = false
        for tick in 200...3000 {
            let snapshot = drive.sample(at: .milliseconds(tick * 100))
            if snapshot["speed"] == 0.0, snapshot["prndl"] == "DRIVE" {
                #expect(snapshot["driverBraking"] == "YES")
                heldAtLight = true
            }
        }
        #expect(heldAtLight)
    }

    @Test func arbitraryTimesAndLongRunsStayValid() throws {
        for elapsed: Duration in [
            .zero, .milliseconds(-5), .milliseconds(1234), .seconds(3600), .seconds(86_400 * 3), .seconds(86_400 * 365),
        ] {
            let snapshot = drive.sample(at: elapsed)
            #expect(try VehicleFixture.issues(snapshot).isEmpty, "\(elapsed)")
        }
        // Off the 0.1 s grid.
        for step in 0..<2200 {
            let snapshot = drive.sample(at: .milliseconds(step * 137))
            #expect(try VehicleFixture.issues(snapshot).isEmpty)
            if snapshot["prndl"] == "PARK" { #expect(snapshot["speed"] == 0.0) }
        }
        var long = GeneratedDrive.Configuration()
        long.vin = "TOO-LONG-FOR-A-VIN-BY-FAR"
        #expect(GeneratedDrive(configuration: long).sample(at: .zero)["vin"] == "TOO-LONG-FOR-A-VI")
    }

    @Test func valuesForNamesAndSnapshotAPI() {
        let snapshot = drive.sample(at: .seconds(40))
        let picked = snapshot.values(for: ["speed", "rpm", "deviceStatus", "nonsense"])
        #expect(Set(picked.keys) == ["speed", "rpm"])
        #expect(snapshot["vin"] == "1SDLGWSIM00000042")
        #expect(VehicleDataSnapshot.allNames.count == 36)
        #expect(GeneratedDrive.providedNames.count == 35)
        var copy = snapshot
        #expect(copy.merge(["speed": snapshot["speed"]!, "rpm": 1]) == ["rpm": 1])
        #expect(copy.changes(since: snapshot) == ["rpm": 1])
    }

    @Test func gpsUTCTimeFollowsTheStartTime() throws {
        let gps = try #require(drive.sample(at: .seconds(65))["gps"])
        #expect(gps["utcYear"] == 2026)
        #expect(gps["utcMonth"] == 6)
        #expect(gps["utcDay"] == 13)
        #expect(gps["utcHours"] == 0)
        #expect(gps["utcMinutes"] == 56)
        #expect(gps["utcSeconds"] == 5)
        let leap = VehicleDataValue.utc(epochSeconds: 1_709_210_096)  // 2024-02-29T12:34:56Z
        #expect(leap.year == 2024 && leap.month == 2 && leap.day == 29 && leap.hour == 12 && leap.minute == 34 && leap.second == 56)
    }

    @Test func headlampsComeOnAtNight() {
        let dusk = drive.sample(at: .seconds(10))["headLampStatus"]
        #expect(dusk?["ambientLightSensorStatus"] == "TWILIGHT_4")
        #expect(dusk?["lowBeamsOn"] == true)
        let night = drive.sample(at: .seconds(600))["headLampStatus"]
        #expect(night?["ambientLightSensorStatus"] == "NIGHT")
        let noon = GeneratedDrive(configuration: .init(startEpochSeconds: 1_781_280_000)).sample(at: .zero)["headLampStatus"]
        #expect(noon?["ambientLightSensorStatus"] == "DAY")
        #expect(noon?["lowBeamsOn"] == false)
    }
}
