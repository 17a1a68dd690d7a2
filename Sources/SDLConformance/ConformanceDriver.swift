import SDLProtocol

/// The driver's side of the head unit: what a person in the car does, and what the vehicle
/// reports. `sdl-gateway check` implements it over the control API shared by the simulator
/// (`simulate --control`, `serve --simulate`'s `/v1/simulator`) and the headless HMI (`hmi
/// --control`, `/v1/hmi`): the same paths and bodies (README "Naming in the control APIs").
///
/// Apps are named by their SDL `appID`; commands, choices and soft buttons by their numbers.
/// Every action throws ``ConformanceFailure`` with code ``ConformanceFailure/Code/driver`` when
/// the driver's side refuses it.
public protocol ConformanceDriver: Sendable {
    /// Where the driver is, for the report ("control API http://127.0.0.1:12346").
    var name: String { get }
    /// The HMI activates the app (`FULL`) or sends it to `LIMITED`, `BACKGROUND` or `NONE`.
    func setHMILevel(_ level: String, appID: String) async throws
    /// A hardware button (`OK`, `SEEKLEFT` …) pressed `SHORT` or `LONG`.
    func pressButton(_ name: String, mode: String) async throws
    /// A soft button of what `appID` shows (an alert's first), by its `softButtonID`.
    func pressSoftButton(_ softButtonID: Int, appID: String) async throws
    /// The driver picks the choice `choiceID` of the interaction `appID` has open.
    func answerInteraction(choiceID: Int, appID: String) async throws
    /// The driver picks the menu entry (or says the voice command) `commandID` of `appID`.
    func triggerCommand(_ commandID: Int, appID: String, voice: Bool) async throws
    /// The vehicle reports these values (`{"speed": 42.5}`); a `null` value ends an override.
    func setVehicleData(_ values: SDLJSON) async throws
}
