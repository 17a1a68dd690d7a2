import Foundation
import SDLProtocol

/// A deterministic, believable drive around a city for the simulated car, computed from a
/// seed: no clocks are read, the caller passes the time since the drive started.
///
/// One cycle (about four and a half minutes) is: parked (PARK, engine idling) for 15 s, then
/// five legs of accelerate → cruise → brake → stop at a light (DRIVE, brake held), turning
/// 90° while pulling away on four of them; the cycle then repeats. Everything is derived from
/// the same motion, so it stays consistent:
///
/// - `speed` ramps with 1.3…2.3 m/s² up, cruises at 30…90 km/h, brakes with 1.6…2.8 m/s²;
/// - `rpm`, `gearStatus.actualGear` (FIRST…SIXTH) and `engineTorque` follow speed, the gear
///   and the acceleration of a six-speed automatic; `prndl` is PARK only while parked;
/// - `odometer` (km), `gps` (flat-earth displacement from the start coordinate along the
///   heading, UTC time from the configured start), `fuelLevel`/`fuelRange` integrate the
///   motion; the tank refills to 100 % when it gets down to 8 %;
/// - `driverBraking` is YES while decelerating or held at a light, `steeringWheelAngle`
///   follows the turn rate, `turnSignal` is on while turning;
/// - headlamps follow the ambient light of the local time of day (dusk at the default start),
///   high beams at night above 75 km/h; the outside temperature drifts slowly.
///
/// Sample it at any rate (10 Hz is intended) with ``sample(at:)``. Every value satisfies the
/// types, mandatory members, enums and ranges of OnVehicleData in MOBILE_API.xml 8.0.0.
public struct GeneratedDrive: Sendable {
    public struct Configuration: Sendable, Hashable {
        public var seed: UInt64
        public var startLatitude: Double
        public var startLongitude: Double
        /// UTC time of the start, in seconds since 1970 (GPS time and the ambient light).
        public var startEpochSeconds: Int64
        /// The local time's offset from UTC, in hours (for the ambient light).
        public var utcOffsetHours: Double
        public var startOdometerKm: Double
        /// At most 17 characters (the VIN's SDL maximum length).
        public var vin: String

        /// Detroit (42.3314, -83.0458), 2026-06-13T00:55:00Z (20:55 EDT, dusk), 23 456 km.
        public init(
            seed: UInt64 = 1, startLatitude: Double = 42.3314, startLongitude: Double = -83.0458,
            startEpochSeconds: Int64 = 1_781_312_100, utcOffsetHours: Double = -4,
            startOdometerKm: Double = 23_456, vin: String = "1SDLGWSIM00000042"
        ) {
            self.seed = seed
            self.startLatitude = startLatitude
            self.startLongitude = startLongitude
            self.startEpochSeconds = startEpochSeconds
            self.utcOffsetHours = utcOffsetHours
            self.startOdometerKm = startOdometerKm
            self.vin = String(vin.unicodeScalars.prefix(17))
        }
    }

    /// The names ``sample(at:)`` provides: all of ``VehicleDataSnapshot/allNames`` except
    /// `deviceStatus`, which describes the phone rather than the car.
    public static let providedNames: [String] = VehicleDataSnapshot.allNames.filter { $0 != "deviceStatus" }

    public let configuration: Configuration
    /// The length of one cycle of the drive; the drive repeats after it.
    public let cycleDuration: Duration

    static let stepSeconds = 0.1
    private let table: [Step]
    private let cycleSeconds: Double
    private let fuelCapacity = 55.0
    private let startFuelPercent = 62.0
    private let temperatureBase: Double

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var rng = SplitMix64(seed: configuration.seed)
        let phases = Self.makePhases(&rng)
        let total = phases.last.map { $0.start + $0.duration } ?? 1
        let stepCount = max(1, Int((total / Self.stepSeconds).rounded(.up)))
        cycleSeconds = Double(stepCount) * Self.stepSeconds
        cycleDuration = .milliseconds(Int64(stepCount) * 100)
        table = Self.integrate(phases, steps: stepCount, startHeading: Double(rng.next() % 4) * 90)
        temperatureBase = 17 + Double(rng.next() % 400) / 100
    }

    public init(seed: UInt64) {
        self.init(configuration: Configuration(seed: seed))
    }

    // MARK: - Sampling

    /// The vehicle data `elapsed` after the start of the drive (negative counts as zero).
    public func sample(at elapsed: Duration) -> VehicleDataSnapshot {
        let seconds = max(0, Self.seconds(elapsed))
        let cycles = (seconds / cycleSeconds).rounded(.down)
        let local = seconds - cycles * cycleSeconds
        var position = local / Self.stepSeconds
        if abs(position - position.rounded()) < 1e-6 { position = position.rounded() }
        let index = min(max(Int(position.rounded(.down)), 0), table.count - 2)
        let fraction = min(max(position - Double(index), 0), 1)
        let before = table[index], b = table[index + 1]
        // Discrete state (phase, gear, signals) from the nearest step.
        let a = fraction < 0.5 ? before : b
        let end = table[table.count - 1]
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * fraction }

        let speed = lerp(before.speed, b.speed)  // m/s
        let kmh = speed * 3.6
        let distance = cycles * end.distance + lerp(before.distance, b.distance)
        let east = cycles * end.east + lerp(before.east, b.east)
        let north = cycles * end.north + lerp(before.north, b.north)
        let fuelUsed = cycles * end.fuelUsed + lerp(before.fuelUsed, b.fuelUsed)
        let heading = lerp(before.heading, b.heading)
        let parked = a.parked
        let epoch = configuration.startEpochSeconds + Int64(seconds.rounded(.down))

        var values = VehicleDataValue.steadyState
        let f = VehicleDataValue.float
        values["speed"] = f(kmh, 0...700, 1)

        // Engine and transmission.
        let gear = parked ? 0 : Self.gear(forKmh: kmh)
        let rpm = parked ? 780 : Self.rpm(speed: speed, gear: gear, accelerating: a.acceleration > 0.05)
        values["rpm"] = VehicleDataValue.integer(rpm, 0...20_000)
        let gearNames = ["PARK", "FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH"]
        values["prndl"] = .string(parked ? "PARK" : "DRIVE")
        values["gearStatus"] = VehicleDataValue.gearStatus(
            userSelected: parked ? "PARK" : "DRIVE", actual: gearNames[gear], transmission: "AUTOMATIC")
        values["engineTorque"] = f(Self.torque(speed: speed, acceleration: a.acceleration, gear: gear), -1000...2000, 1)
        values["accPedalPosition"] = f(Self.pedal(kmh: kmh, acceleration: a.acceleration), 0...100, 1)
        values["driverBraking"] = .string(!parked && (a.acceleration < -0.05 || speed < 0.01) ? "YES" : "NO")
        values["electronicParkBrakeStatus"] = .string(parked ? "CLOSED" : "OPEN")
        values["engineOilLife"] = f(73 - (distance / 1000) * 0.0005, 0...100, 1)

        // Fuel.
        var level = (startFuelPercent - 8 - fuelUsed / fuelCapacity * 100).truncatingRemainder(dividingBy: 92)
        if level < 0 { level += 92 }
        level += 8
        values["fuelLevel"] = f(level, -6...106, 1)
        values["fuelLevel_State"] = .string(VehicleDataValue.fuelLevelState(level))
        values["fuelRange"] = VehicleDataValue.fuelRange(
            level: level, range: level / 100 * fuelCapacity / 7.0 * 100, capacity: fuelCapacity)
        values["instantFuelConsumption"] = f(Self.fuelRate(kmh: kmh, acceleration: a.acceleration) * 1_000_000 / 3600, 0...25_575, 1)

        // Position.
        let metresPerDegree = 111_320.0
        var latitude = configuration.startLatitude + north / metresPerDegree
        latitude = VehicleDataValue.clamp(latitude, -89.9...89.9)
        let cosLatitude = max(0.01, cos(configuration.startLatitude * .pi / 180))
        var longitude = configuration.startLongitude + east / (metresPerDegree * cosLatitude)
        longitude = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if longitude < 0 { longitude += 360 }
        longitude -= 180
        let bucket = UInt64(seconds / 20)
        var noise = SplitMix64(seed: configuration.seed &+ bucket &* 0x9E37_79B9)
        values["gps"] = VehicleDataValue.gps(
            latitude: latitude, longitude: longitude, altitude: 183 + 4 * sin(distance / 900),
            heading: heading, speed: kmh, epochSeconds: epoch, satellites: 8 + Int64(noise.next() % 4),
            pdop: 1.6 + Double(noise.next() % 5) / 10, hdop: 0.9 + Double(noise.next() % 4) / 10, vdop: 1.2 + Double(noise.next() % 4) / 10)
        values["odometer"] = VehicleDataValue.integer(configuration.startOdometerKm + distance / 1000, 0...17_000_000)

        // Steering.
        let yawRate = a.yawRate * .pi / 180
        let roadWheel = speed < 0.05 ? 0 : atan(2.8 * yawRate / max(speed, 2.0))
        values["steeringWheelAngle"] = f(VehicleDataValue.clamp(roadWheel * 180 / .pi * 15, -540...540), -2000...2000, 1)
        values["turnSignal"] = .string(a.turning > 0 ? "RIGHT" : a.turning < 0 ? "LEFT" : "OFF")

        // Lights and weather.
        let localHours = ((Double(configuration.startEpochSeconds) + seconds) / 3600 + configuration.utcOffsetHours).truncatingRemainder(
            dividingBy: 24)
        let ambient = Self.ambientLight(localHours: localHours < 0 ? localHours + 24 : localHours)
        values["headLampStatus"] = VehicleDataValue.headLampStatus(
            lowBeamsOn: ambient != "DAY", highBeamsOn: ambient == "NIGHT" && kmh > 75, ambientLight: ambient)
        let temperature = temperatureBase - 3 * (1 - exp(-seconds / 7200)) + 0.4 * sin(2 * .pi * seconds / 900)
        values["externalTemperature"] = f(temperature, -40...100, 1)
        values["climateData"] = VehicleDataValue.climateData(
            externalTemperature: temperature, cabinTemperature: 21.5 + 0.3 * sin(2 * .pi * seconds / 600), atmosphericPressure: 1013.2)
        let warm = 6 * (1 - exp(-seconds / 600))
        values["tirePressure"] = VehicleDataValue.tireStatus(pressures: [232 + warm, 233 + warm, 228 + warm, 229 + warm])

        // Cabin and body.
        values["bodyInformation"] = VehicleDataValue.bodyInformation(
            parkBrakeActive: parked, ignitionStatus: "RUN", doors: Array(repeating: parked ? "CLOSED" : "LOCKED", count: 4))
        values["beltStatus"] = VehicleDataValue.beltStatus(driverBuckled: true, passengerBuckled: false)
        values["seatOccupancy"] = VehicleDataValue.seatOccupancy(driver: (true, true), passenger: (false, false))
        values["windowStatus"] = VehicleDataValue.windowStatus(openPercent: [0, 0, 0, 0])
        values["vin"] = .string(String(configuration.vin.unicodeScalars.prefix(17)))
        values["cloudAppVehicleID"] = "sdl-gateway-simulator"
        return VehicleDataSnapshot(values)
    }

    // MARK: - The drive cycle

    /// One step of the precomputed cycle (every 0.1 s).
    struct Step: Sendable {
        var speed = 0.0  // m/s
        var acceleration = 0.0  // m/s², of the phase
        var heading = 0.0  // degrees, unnormalised
        var yawRate = 0.0  // degrees/s
        var parked = true
        var turning = 0  // -1 left, 1 right
        var distance = 0.0  // m since the cycle start
        var east = 0.0
        var north = 0.0
        var fuelUsed = 0.0  // litres since the cycle start
    }

    struct Phase: Sendable {
        var start: Double
        var duration: Double
        var fromSpeed: Double
        var toSpeed: Double
        var parkedUntil: Double = 0  // local time within the phase
        var turn: Double = 0  // degrees over the first `turnDuration`
        var turnDuration: Double = 0
        var wander = false
    }

    static func makePhases(_ rng: inout SplitMix64) -> [Phase] {
        var phases: [Phase] = [Phase(start: 0, duration: 15, fromSpeed: 0, toSpeed: 0, parkedUntil: 13.5)]
        var t = 15.0
        let side: Double = rng.next() % 2 == 0 ? 1 : -1
        let turns: [Double] = [90, 90, 0, 90, 90].map { $0 * side }
        for leg in 0..<turns.count {
            let target = rng.uniform(30, 90) / 3.6
            let accelerate = target / rng.uniform(1.3, 2.3)
            phases.append(
                Phase(start: t, duration: accelerate, fromSpeed: 0, toSpeed: target, turn: turns[leg], turnDuration: min(accelerate, 6)))
            t += accelerate
            let cruise = rng.uniform(12, 40)
            phases.append(Phase(start: t, duration: cruise, fromSpeed: target, toSpeed: target, wander: true))
            t += cruise
            let brake = target / rng.uniform(1.6, 2.8)
            phases.append(Phase(start: t, duration: brake, fromSpeed: target, toSpeed: 0))
            t += brake
            let stop = leg == turns.count - 1 ? 2 : rng.uniform(4, 12)
            phases.append(Phase(start: t, duration: stop, fromSpeed: 0, toSpeed: 0))
            t += stop
        }
        return phases
    }

    /// The motion at local time `t` of the cycle.
    static func motion(at t: Double, in phases: [Phase], from index: inout Int) -> Step {
        while index < phases.count - 1, t >= phases[index].start + phases[index].duration { index += 1 }
        let phase = phases[index]
        let local = min(max(t - phase.start, 0), phase.duration)
        var step = Step()
        step.acceleration = (phase.toSpeed - phase.fromSpeed) / phase.duration
        step.speed = max(0, phase.fromSpeed + step.acceleration * local)
        step.parked = local < phase.parkedUntil
        if phase.turn != 0, local < phase.turnDuration {
            step.yawRate = phase.turn / phase.turnDuration
            step.turning = phase.turn > 0 ? 1 : -1
        } else if phase.wander {
            step.yawRate = 1.5 * sin(2 * .pi * local / 25)
        }
        return step
    }

    static func integrate(_ phases: [Phase], steps: Int, startHeading: Double) -> [Step] {
        var table: [Step] = []
        table.reserveCapacity(steps + 1)
        var phaseIndex = 0
        var midIndex = 0
        var previous = motion(at: 0, in: phases, from: &phaseIndex)
        previous.heading = startHeading
        table.append(previous)
        for i in 1...steps {
            let t = Double(i) * stepSeconds
            var step = motion(at: t, in: phases, from: &phaseIndex)
            let middle = motion(at: t - stepSeconds / 2, in: phases, from: &midIndex)
            step.heading = previous.heading + middle.yawRate * stepSeconds
            let headingMiddle = (previous.heading + step.heading) / 2 * .pi / 180
            let ds = (previous.speed + step.speed) / 2 * stepSeconds
            step.distance = previous.distance + ds
            step.east = previous.east + ds * sin(headingMiddle)
            step.north = previous.north + ds * cos(headingMiddle)
            let litresPerHour =
                (fuelRate(kmh: previous.speed * 3.6, acceleration: previous.acceleration)
                    + fuelRate(kmh: step.speed * 3.6, acceleration: step.acceleration)) / 2
            step.fuelUsed = previous.fuelUsed + litresPerHour / 3600 * stepSeconds
            table.append(step)
            previous = step
        }
        return table
    }

    // MARK: - Car model

    static let gearRatios = [4.17, 2.34, 1.52, 1.14, 0.87, 0.69]
    static let finalDrive = 3.2
    static let wheelCircumference = 2.07  // m

    static func gear(forKmh kmh: Double) -> Int {
        switch kmh {
        case ..<15: return 1
        case ..<30: return 2
        case ..<45: return 3
        case ..<60: return 4
        case ..<78: return 5
        default: return 6
        }
    }

    static func rpm(speed: Double, gear: Int, accelerating: Bool) -> Double {
        let wheelRPM = speed / wheelCircumference * 60
        let engine = wheelRPM * gearRatios[gear - 1] * finalDrive + (accelerating ? 250 : 0)
        return max(780, engine)
    }

    static func torque(speed: Double, acceleration: Double, gear: Int) -> Double {
        guard gear > 0 else { return 18 }
        let ratio = gearRatios[gear - 1] * finalDrive
        if acceleration < -0.05 { return -12 }
        let force = 1500 * max(acceleration, 0) + 180 + 0.4 * speed * speed
        return max(18, force * 0.33 / ratio)
    }

    static func pedal(kmh: Double, acceleration: Double) -> Double {
        if acceleration > 0.05 { return 22 + 9 * acceleration }
        if acceleration < -0.05 || kmh < 0.5 { return 0 }
        return 6 + kmh * 0.12
    }

    /// Litres per hour.
    static func fuelRate(kmh: Double, acceleration: Double) -> Double {
        if acceleration < -0.05 { return 0.3 }
        return 0.8 + 0.045 * kmh + (acceleration > 0.05 ? 3.5 * acceleration * (0.5 + kmh / 60) : 0)
    }

    static func ambientLight(localHours h: Double) -> String {
        switch h {
        case 6..<19.5: return "DAY"
        case 19.5..<20: return "TWILIGHT_1"
        case 20..<20.5: return "TWILIGHT_2"
        case 20.5..<20.75: return "TWILIGHT_3"
        case 20.75..<21: return "TWILIGHT_4"
        case 5..<6: return "TWILIGHT_2"
        default: return "NIGHT"
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

/// A small deterministic generator (SplitMix64, Steele et al. 2014).
struct SplitMix64: Sendable {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `low..<high`.
    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
}
