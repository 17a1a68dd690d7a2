/// Where the simulated vehicle's data comes from.
public enum VehicleSource: Sendable {
    /// A generated drive (``GeneratedDrive``), looping.
    case generated(GeneratedDrive)
    /// An OpenXC trace replayed at `speed` times its recorded pace, looping or not.
    case trace(OpenXCTrace, speed: Double, loop: Bool)
    /// No vehicle data besides what the control API sets.
    case none
}
