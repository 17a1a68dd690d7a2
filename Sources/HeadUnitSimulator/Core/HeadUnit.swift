import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

/// The simulated head unit: SDL Core, its HMI and the vehicle, as one pure value.
///
/// A driver feeds it what happens — a connection opens, bytes arrive, a connection closes, time
/// passes, the control API asks for something — with the current time, and executes the
/// ``HeadUnitAction``s it returns (writes and closes). It never reads a clock and does no I/O, so
/// tests drive it message by message.
///
/// What an app can observe follows SDL Core 8.2 (docs/protocol.md §a–§e, §k): session ids from one
/// pool of 1–255, hash ids `(session << 16) | connection`, v5 StartServiceACK keys, EndService
/// hash id checks, HeartbeatACKs for v3–v5, malformed-frame filtering, UNSUPPORTED_REQUEST with
/// the request's own function id, the notifications after registration, and policy checks.
public struct HeadUnit: Sendable {
    public let configuration: HeadUnitConfiguration
    var catalog: SDLCatalog { configuration.catalog }

    var connections: [ConnectionID: ConnectionState] = [:]
    var sessions: [UInt8: SessionState] = [:]
    /// Registered apps by session id.
    public internal(set) var apps: [UInt8: AppState] = [:]
    /// What abruptly disconnected apps had, by policy app id, for hashID resumption.
    var resumption: [String: ResumptionRecord] = [:]
    /// Persistent files survive an app's unregistration, by policy app id (docs/protocol.md §c PutFile).
    /// A registered app's own are in its ``AppState/files``, not here.
    var persistentFiles: [String: [String: StoredFile]] = [:]
    /// What every kept file takes of the file storage (``StoredFile/storageSize``), kept in step
    /// by PutFile, DeleteFile and an app's removal; at most ``HeadUnitConfiguration/fileStorageLimit``.
    public internal(set) var fileStorageUsed = 0
    var hashCounter: UInt64 = 0
    /// Sessions whose resumable data the request being handled changed: their OnHashChange goes
    /// out after the response, as Core sends it (docs/protocol.md §k).
    var hashChangesPending: Set<UInt8> = []
    var timers = TimerQueue()
    public internal(set) var log: TrafficLog
    /// The current driver distraction state, `DD_OFF` or `DD_ON`.
    public internal(set) var driverDistraction = "DD_OFF"
    /// The simulated vehicle (see ``vehicleData``).
    var vehicle: VehicleState
    /// Counts what happened on every app's streams (data kept, a service started or ended), so a
    /// driver can tell the live stream readers (``StreamRecord``) that there is something new.
    public internal(set) var streamGeneration: UInt64 = 0
    /// Faults injected through the control API.
    public internal(set) var faults = FaultSet()
    private var nextConnection = 1
    /// Actions produced by the current call, returned when it ends.
    var outbox: [HeadUnitAction] = []

    public init(configuration: HeadUnitConfiguration = HeadUnitConfiguration()) {
        self.configuration = configuration
        self.log = TrafficLog(capacity: configuration.trafficLogCapacity)
        self.vehicle = VehicleState(configuration.vehicle)
    }

    // MARK: - Driver entry points

    /// A transport connection was accepted.
    public mutating func connectionOpened() -> ConnectionID {
        let id = ConnectionID(nextConnection)
        nextConnection = nextConnection == 65_535 ? 1 : nextConnection + 1
        connections[id] = ConnectionState(id: id, maximumPayloadSize: configuration.maximumPayloadSize)
        return id
    }

    /// Bytes arrived on a connection.
    public mutating func receive(_ bytes: ByteBuffer, on connection: ConnectionID, now: NIODeadline) -> [HeadUnitAction] {
        // Nobody may have been watching the vehicle (no deadline, no advance): bring it up to date
        // before a request reads it.
        if vehicle.start != nil { sampleVehicle(now: now) }
        processBytes(bytes, on: connection, now: now)
        return takeActions()
    }

    /// The transport connection closed (by the app, the network, or after a `.close` action).
    /// Its apps disconnect without unregistering, so they may resume with their hashID.
    public mutating func connectionClosed(_ connection: ConnectionID, now: NIODeadline) -> [HeadUnitAction] {
        guard let state = connections.removeValue(forKey: connection) else { return takeActions() }
        for session in state.sessions.sorted() {
            endSession(session, keepingResumptionData: true, now: now)
        }
        return takeActions()
    }

    /// Time passed: fires due timers (interactions, activation, audio pass-thru, delayed faults),
    /// checks heartbeats, samples the vehicle and drops reassemblies that went quiet. Calling it
    /// when nothing is due does nothing; see ``nextDeadline`` for when something will be.
    public mutating func advance(to now: NIODeadline) -> [HeadUnitAction] {
        while let (_, event) = timers.popDue(now: now) {
            fire(event, now: now)
        }
        checkHeartbeats(now: now)
        sampleVehicle(now: now)
        for id in connections.keys {
            connections[id]?.assembler.expire(now: now)
        }
        return takeActions()
    }

    mutating func takeActions() -> [HeadUnitAction] {
        defer { outbox.removeAll() }
        return outbox
    }

    // MARK: - Lookups

    /// The app registered with this policy app id (case-insensitive).
    public func app(withID appID: String) -> AppState? {
        let key = appID.lowercased()
        return apps.values.first { $0.appID == key }
    }

    func sessionID(ofApp appID: String) -> UInt8? {
        app(withID: appID)?.sessionID
    }
}

/// What SDL Core keeps of an app that disconnected abruptly, for resumption (docs/protocol.md §k).
struct ResumptionRecord: Sendable {
    var hash: String
    var app: AppState
}
