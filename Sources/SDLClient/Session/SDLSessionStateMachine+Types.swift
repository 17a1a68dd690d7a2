import NIOCore
import SDLProtocol

extension SDLSessionStateMachine {
    /// How a session negotiates and watches its link.
    public struct Configuration: Sendable, Hashable {
        /// The highest protocol version offered in StartService (docs/protocol.md §a "Opening
        /// handshake"): "5.4.0", as SDL Core 8.2's `default_protocol_version` and the JavaScript
        /// library. A major version below 5 sends the StartService with that header version and
        /// no BSON payload, as v3/v4 apps do (§k).
        public var protocolVersion: String
        /// How long to wait for StartServiceACK/NAK. Core sends none until its HMI is ready (§k),
        /// so this bounds a connect to a head unit that never becomes ready.
        public var startServiceTimeout: TimeAmount
        /// How long to wait for EndServiceACK/NAK after our EndService before closing anyway:
        /// Core's `DefaultTimeout` 10000 ms plus 1000 ms compensation (§e).
        public var endServiceTimeout: TimeAmount
        /// Heartbeat interval (§d: Core's `HeartBeatTimeout` is 5000 ms by default). With a
        /// negotiated major version in ``heartbeatVersions`` the session sends a Heartbeat after
        /// this much time without sending anything.
        public var heartbeatInterval: TimeAmount
        /// The negotiated major versions on which the session sends its own Heartbeats. Heartbeats
        /// are required in v3 and deprecated from v4 (§d); Core sends none on v5 (§k).
        public var heartbeatVersions: ClosedRange<UInt8>
        /// When to declare the link dead because nothing was received.
        public var idleTimeout: IdleTimeout
        /// Limits of the reassembly of First/Consecutive frames.
        public var assembler: SDLMessageAssembler.Configuration

        public init(
            protocolVersion: String = "5.4.0",
            startServiceTimeout: TimeAmount = .seconds(20),
            endServiceTimeout: TimeAmount = .milliseconds(11_000),
            heartbeatInterval: TimeAmount = .seconds(5),
            heartbeatVersions: ClosedRange<UInt8> = 3...3,
            idleTimeout: IdleTimeout = .automatic,
            assembler: SDLMessageAssembler.Configuration = .default
        ) {
            precondition(heartbeatInterval > .zero, "the heartbeat interval must be positive")
            self.protocolVersion = protocolVersion
            self.startServiceTimeout = startServiceTimeout
            self.endServiceTimeout = endServiceTimeout
            self.heartbeatInterval = heartbeatInterval
            self.heartbeatVersions = heartbeatVersions
            self.idleTimeout = idleTimeout
            self.assembler = assembler
        }

        public static let `default` = Configuration()
    }

    /// When an established session gives up on a silent link (docs/protocol.md §d).
    public enum IdleTimeout: Sendable, Hashable {
        /// Three heartbeat intervals when the session sends Heartbeats (each is answered, so a
        /// live link is never silent that long); otherwise disabled, because Core sends nothing on
        /// an idle v5 session (§k).
        case automatic
        /// Never: only the transport notices a dead link.
        case disabled
        /// After this long without receiving a frame, whatever the version.
        case after(TimeAmount)
    }

    /// What the session negotiated with the head unit's StartServiceACK (docs/protocol.md §a
    /// "Opening handshake", §b "StartServiceACK keys").
    public struct SessionParameters: Sendable, Hashable {
        /// The session id the head unit allocated (1…255 in Core).
        public var sessionID: UInt8
        /// The negotiated "Major.Minor.Patch": the lower of ours and the head unit's; for v2–v4
        /// ACKs, which carry no version string, "Major.0.0" of the ACK's header.
        public var protocolVersion: String
        /// The header version every later frame of the session uses, 2…5.
        public var majorVersion: UInt8
        /// The hash id to echo in EndService(RPC); `nil` when the ACK carried none.
        public var hashID: Int32?
        /// The payload limit: the ACK's `mtu` for v5 (131072 if absent), 1488 for v2, 131072 for
        /// v3/v4 (§a "MTU"). Outgoing messages are fragmented at it, and it is the frame decoder's
        /// payload limit.
        public var mtu: Int
        /// The whole StartServiceACK (vehicle make/model, transports … on v5).
        public var acknowledgement: SDLControlMessage.StartServiceACK

        public init(
            sessionID: UInt8, protocolVersion: String, majorVersion: UInt8, hashID: Int32?, mtu: Int,
            acknowledgement: SDLControlMessage.StartServiceACK = .init()
        ) {
            self.sessionID = sessionID
            self.protocolVersion = protocolVersion
            self.majorVersion = majorVersion
            self.hashID = hashID
            self.mtu = mtu
            self.acknowledgement = acknowledgement
        }
    }

    /// What the driver must do after an input, in order.
    public enum Action: Sendable, Hashable {
        /// Write these frames to the connection, in order.
        case write([SDLFrame])
        /// A whole RPC message arrived from the head unit.
        case deliver(SDLRPCMessage)
        /// The RPC service started; set the frame decoder's payload limit to `mtu`.
        case established(SessionParameters)
        /// A control message on the video or audio service (StartServiceACK/NAK, EndService,
        /// EndServiceACK/NAK) for the session's ``SDLStreamingServices`` (docs/protocol.md §o).
        case streamControl(SDLStreamingService, SDLControlMessage)
        /// Close the connection (after writing anything before it). `nil` when the owner's
        /// EndService was acknowledged; otherwise why the session ended.
        case closeConnection(SDLClientError?)
    }
}
