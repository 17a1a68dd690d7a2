import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

/// The vehicle's state inside the head unit: the feed and the control API's overrides.
struct VehicleState: Sendable {
    var drive: GeneratedDrive?
    var replayer: TraceReplayer?
    /// The feed's latest values.
    var feed = VehicleDataSnapshot()
    /// Values set through the control API; they win over the feed.
    var overrides: [String: SDLJSON] = [:]
    var start: NIODeadline?
    var nextSample: NIODeadline?
    /// Since when the feed is paused (`PUT /feed {"playing": false}`); nil while it plays.
    var pausedAt: NIODeadline?
    /// Where the data comes from, to start it again from the beginning.
    let source: VehicleSource

    init(_ source: VehicleSource) {
        self.source = source
        switch source {
        case .generated(let drive):
            self.drive = drive
            feed = drive.sample(at: .zero)
        case .trace(let trace, let speed, let loop):
            replayer = TraceReplayer(trace: trace, speedFactor: speed, loops: loop)
        case .none:
            break
        }
    }
}

/// Vehicle data and the buttons of a replayed trace, sampled at `vehicleDataInterval` (10 Hz) and
/// sent as OnVehicleData to subscribed apps (docs/protocol.md §h): every sample of a generated
/// drive, and what changed of a replayed trace.
extension HeadUnit {
    /// Samples the feed when a sample is due; sends what changed. Due means `vehicleDataInterval`
    /// after the last sample, whether or not ``nextVehicleSample`` reported it: a feed nobody
    /// watched catches up here.
    mutating func sampleVehicle(now: NIODeadline) {
        guard vehicle.pausedAt == nil else { return }
        if vehicle.start == nil {
            vehicle.start = now
            vehicle.nextSample = now
        }
        guard let due = vehicle.nextSample, due <= now, let start = vehicle.start else { return }
        vehicle.nextSample = now + configuration.vehicleDataInterval
        let elapsed = Duration.nanoseconds(now.uptimeNanoseconds - start.uptimeNanoseconds)
        var changed: [String: SDLJSON] = [:]
        if let drive = vehicle.drive {
            // A generated drive streams like an HMI does: every sample, changed or not.
            _ = vehicle.feed.merge(drive.sample(at: elapsed).values)
            publishVehicleData(vehicleData, now: now)
            return
        } else if var replayer = vehicle.replayer {
            for event in replayer.advance(to: elapsed) {
                switch event {
                case .vehicleData(let values):
                    changed.merge(vehicle.feed.merge(values)) { $1 }
                case .buttonEvent(let name, let mode):
                    sendButton("OnButtonEvent", name: name, ["buttonEventMode": .string(mode.rawValue)], now: now)
                case .buttonPress(let name, let mode):
                    sendButton("OnButtonPress", name: name, ["buttonPressMode": .string(mode.rawValue)], now: now)
                }
            }
            vehicle.replayer = replayer
        }
        for name in vehicle.overrides.keys { changed[name] = nil }
        publishVehicleData(changed, now: now)
    }

    /// A trace's button to the subscribed apps in FULL or LIMITED.
    mutating func sendButton(_ notification: String, name: String, _ parameters: [String: SDLJSON], now: NIODeadline) {
        for app in appList where app.buttonSubscriptions.contains(name) && (app.hmiLevel == "FULL" || app.hmiLevel == "LIMITED") {
            notify(notification, parameters.merging(["buttonName": .string(name)]) { $1 }, to: app.sessionID, now: now)
        }
    }

    /// OnVehicleData with the subscribed part of `changed` to each subscribed app.
    mutating func publishVehicleData(_ changed: [String: SDLJSON], now: NIODeadline) {
        guard !changed.isEmpty else { return }
        for app in appList where !app.vehicleDataSubscriptions.isEmpty {
            let mine = changed.filter { app.vehicleDataSubscriptions.contains($0.key) }
            if !mine.isEmpty {
                notify("OnVehicleData", mine, to: app.sessionID, now: now)
            }
        }
    }

    /// The vehicle data apps see: the feed with the control API's overrides on top.
    public var vehicleData: [String: SDLJSON] {
        vehicle.feed.values.merging(vehicle.overrides) { $1 }
    }

    /// `PUT /vehicle-data`: overrides values (checked against OnVehicleData); `null` removes an
    /// override. Subscribed apps get the new values at once.
    public mutating func overrideVehicleData(
        _ values: [String: SDLJSON], now: NIODeadline
    ) throws(SimulatorControlError) -> [HeadUnitAction] {
        let set = values.filter { $0.value != .null }
        let issues = (try? catalog.validate(.object(set), function: "OnVehicleData", messageType: .notification)) ?? []
        if let issue = issues.first {
            throw SimulatorControlError(.invalidValue, issue.message)
        }
        for (name, value) in values {
            if value == .null {
                vehicle.overrides[name] = nil
            } else {
                vehicle.overrides[name] = value
            }
        }
        publishVehicleData(set, now: now)
        return takeActions()
    }
}

/// `GET`/`PUT /feed`: the vehicle data feed (a generated drive or a replayed trace) paused, played
/// on, or started again from its beginning.
extension HeadUnit {
    /// `{source, playing, elapsedSeconds}`: `generated`, `trace` or `none`, and how far it got.
    public func feedStatus(now: NIODeadline) -> SDLJSON {
        let name: String
        switch vehicle.source {
        case .generated: name = "generated"
        case .trace: name = "trace"
        case .none: name = "none"
        }
        let until = vehicle.pausedAt ?? now
        let elapsed = vehicle.start.map { Double(until.uptimeNanoseconds - $0.uptimeNanoseconds) / 1e9 } ?? 0
        return ["source": .string(name), "playing": .bool(vehicle.pausedAt == nil), "elapsedSeconds": .double(max(0, elapsed))]
    }

    /// Pauses (`playing` false: the feed holds its values and sends nothing), plays on from where
    /// it paused, and with `restart` starts the drive or the trace again from its beginning.
    public mutating func setFeed(playing: Bool?, restart: Bool, now: NIODeadline) -> (SDLJSON, [HeadUnitAction]) {
        if restart {
            let paused = vehicle.pausedAt != nil
            vehicle = VehicleState(vehicle.source)
            if paused { vehicle.pausedAt = now }
        }
        switch (playing, vehicle.pausedAt) {
        case (false?, nil):
            vehicle.pausedAt = now
        case (true?, let pausedAt?):
            // The time it was paused does not count: the feed goes on where it stopped.
            if let start = vehicle.start { vehicle.start = start + (now - pausedAt) }
            vehicle.pausedAt = nil
            vehicle.nextSample = now
        default:
            break
        }
        if vehicle.pausedAt == nil && vehicle.start == nil { sampleVehicle(now: now) }
        return (feedStatus(now: now), takeActions())
    }
}
