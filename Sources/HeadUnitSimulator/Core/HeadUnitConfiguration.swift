import HeadUnitModel
import NIOCore
import SDLSpec

/// How the simulated head unit behaves. Every default is SDL Core 8.2's (docs/protocol.md §e).
public struct HeadUnitConfiguration: Sendable {
    /// The RPC catalog requests are validated against.
    public var catalog: SDLCatalog
    /// Capabilities reported to apps.
    public var profile: SimulatorProfile
    /// `open` allows everything; `sdlDefault` mirrors SDL Core's default policy (Base-4).
    public var policy: SimulatorPolicy
    /// Bring each newly registered app to FULL shortly after registration.
    public var autoActivate: Bool
    /// How long after registration an auto-activated app goes to FULL.
    public var autoActivateDelay: TimeAmount
    /// Multiplies the durations of Alert, Speak, ScrollableMessage, Slider, PerformInteraction and
    /// PerformAudioPassThru (0.1 makes a 5 s alert last 0.5 s).
    public var timeScale: Double
    /// `MaximumPayloadSize`: the payload limit of received frames and the v5 `mtu`.
    public var maximumPayloadSize: Int
    /// `MalformedFrequencyCount` / `MalformedFrequencyTime`: more malformed frames than this within
    /// the window close the connection.
    public var malformedFrequencyCount: Int
    public var malformedFrequencyTime: TimeAmount
    /// `HeartBeatTimeout`; monitoring starts with the app's first Heartbeat, as in Core.
    public var heartbeatTimeout: TimeAmount
    /// How often vehicle data is sampled and sent to subscribed apps (10 Hz).
    public var vehicleDataInterval: TimeAmount
    /// How many entries the traffic log keeps.
    public var trafficLogCapacity: Int
    /// Where vehicle data comes from: a generated drive by default.
    public var vehicle: VehicleSource
    /// The URL of OnSystemRequest(LOCK_SCREEN_ICON_URL) after registration: the SDL default
    /// policy table's `lock_screen_icon_url` endpoint.
    public var lockScreenIconURL: String
    /// Sends the JSON of every RPC pretty-printed with newlines and tabs, as SDL Core does
    /// (docs/protocol.md §k), instead of compact; clients must read both.
    public var prettyJSON = false
    /// `ApplicationResumingTimeout` of smartDeviceLink.ini: how long after a resumed registration
    /// the app gets its FULL level back (3000 ms; a real Core 8.2 was measured at 3.01 s,
    /// docs/protocol.md §k). Not scaled by ``timeScale``: it is Core's setting, not the driver's.
    public var resumingTimeout: TimeAmount = .milliseconds(3000)
    /// Core's request flood limits per app (smartDeviceLink.ini `AppTimeScaleMaxRequests` and
    /// the others of ``RequestRateLimiter/Configuration/sdlCore``).
    public var requestLimits: RequestRateLimiter.Configuration = .sdlCore
    /// Bytes of files the head unit keeps for all apps together (`simulate --file-storage-limit`,
    /// in MiB there): the bytes of every app's files, of the persistent files of apps that are
    /// gone, and the declared length of unfinished chunked uploads. A PutFile past it is
    /// OUT_OF_MEMORY, as on a head unit whose storage is full. Each app's own limit is the
    /// profile's `appDirectoryQuota` (Core's `AppDirectoryQuota`). 256 MiB by default.
    public var fileStorageLimit = 256 * 1024 * 1024
    /// How many of the last bytes of each app's video and of its audio stream the head unit keeps
    /// for the control API (`simulate --stream-keep`, in MiB there): 8 MiB by default.
    public var streamKeptBytes = 8 * 1024 * 1024
    /// `StopStreamingTimeout` of smartDeviceLink.ini (1000 ms): how long after an app left
    /// FULL/LIMITED (or its video became NOT_STREAMABLE) Core still takes its stream; the next
    /// data frame after it is answered with EndService (docs/protocol.md §k). Not scaled.
    public var stopStreamingTimeout: TimeAmount = .milliseconds(1000)

    public init(
        catalog: SDLCatalog = .builtIn,
        profile: SimulatorProfile = .default,
        policy: SimulatorPolicy = .open,
        autoActivate: Bool = false,
        autoActivateDelay: TimeAmount = .milliseconds(200),
        timeScale: Double = 1,
        maximumPayloadSize: Int = 131_072,
        malformedFrequencyCount: Int = 10,
        malformedFrequencyTime: TimeAmount = .seconds(1),
        heartbeatTimeout: TimeAmount = .seconds(7),
        vehicleDataInterval: TimeAmount = .milliseconds(100),
        trafficLogCapacity: Int = 1000,
        vehicle: VehicleSource = .generated(GeneratedDrive()),
        lockScreenIconURL: String = "https://i.imgur.com/TgkvOIZ.png"
    ) {
        self.catalog = catalog
        self.profile = profile
        self.policy = policy
        self.autoActivate = autoActivate
        self.autoActivateDelay = autoActivateDelay
        self.timeScale = timeScale
        self.maximumPayloadSize = maximumPayloadSize
        self.malformedFrequencyCount = malformedFrequencyCount
        self.malformedFrequencyTime = malformedFrequencyTime
        self.heartbeatTimeout = heartbeatTimeout
        self.vehicleDataInterval = vehicleDataInterval
        self.trafficLogCapacity = trafficLogCapacity
        self.vehicle = vehicle
        self.lockScreenIconURL = lockScreenIconURL
    }

    /// A duration from the spec scaled by ``timeScale``.
    func scaled(milliseconds: Int64) -> TimeAmount {
        .nanoseconds(Int64((Double(milliseconds) * 1_000_000 * timeScale).rounded()))
    }
}
