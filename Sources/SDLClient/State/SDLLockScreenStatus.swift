/// Whether the phone must show its lock screen (the AppLink/SDL lock screen rules; the
/// `LockScreenStatus` of the SDL app libraries: REQUIRED, OPTIONAL, OFF).
///
/// ``init(hmiLevel:driverDistraction:userSelected:)`` implements the rule table of the SDL
/// iOS library's lock screen status manager, which docs/architecture.md summarises as "required when
/// FULL/LIMITED (and BACKGROUND once launched) with DD_ON, and on the first FULL":
///
/// | HMI level            | launched (`userSelected`) | driver distraction | status     |
/// |----------------------|---------------------------|--------------------|------------|
/// | none (disconnected)  | –                         | –                  | `off`      |
/// | NONE                 | – (NONE clears it)        | –                  | `off`      |
/// | BACKGROUND           | no                        | –                  | `off`      |
/// | BACKGROUND           | yes                       | DD_ON or unknown   | `required` |
/// | BACKGROUND           | yes                       | DD_OFF             | `optional` |
/// | FULL or LIMITED      | (set to yes)              | DD_ON or unknown   | `required` |
/// | FULL or LIMITED      | (set to yes)              | DD_OFF             | `optional` |
///
/// "Launched" means the app has been in FULL or LIMITED since it last was in NONE (or
/// registered). "Unknown" means no OnDriverDistraction has arrived on this registration, which
/// is what makes the lock screen required on the first FULL when the head unit has not yet said
/// the driver is not distracted.
public enum SDLLockScreenStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case required = "REQUIRED"
    case optional = "OPTIONAL"
    case off = "OFF"

    /// The status for an HMI level (`nil`: not registered), the last driver distraction state
    /// (`nil`: none received; `true`: DD_ON) and whether the app has been launched.
    public init(hmiLevel: SDLHMILevel?, driverDistraction: Bool?, userSelected: Bool) {
        switch hmiLevel {
        case nil, .none?:
            self = .off
        case .background?:
            guard userSelected else {
                self = .off
                return
            }
            self = driverDistraction == false ? .optional : .required
        case .full?, .limited?:
            self = driverDistraction == false ? .optional : .required
        }
    }

    public var description: String { rawValue }
}
