/// The declarative managers of one app session: screen, menu and voice commands, choice sets,
/// media. The user says what the head unit should show; the managers say which RPCs make it so.
///
/// ## Design
///
/// Everything here is pure: no sockets, no clock, no tasks. Each manager is a value that keeps
/// what the head unit last *accepted* and plans against it:
///
/// 1. `plan(…)` validates the declaration (errors are ``SDLManagerError``s naming the JSON
///    path), renders it for the display (``SDLDisplayProfile``) and returns an `Update`: an
///    ``SDLManagerPlan`` (requests in sending order, ensure-file steps before the first use of an
///    image, warnings) and the state the head unit has once the plan succeeded. Planning
///    allocates ids (cmdID, menuID, softButtonID, choiceID, cancelID), never reused.
/// 2. The driver (in the gateway) executes the steps one by one, resolving `ensureFile` with
///    ListFiles and PutFile, and calls `accept(_:)` when every request succeeded. On a failure
///    it does not accept: the next plan starts from the last accepted state again.
/// 3. After RESUME_FAILED or a head unit restart, ``resumptionPlan(_:profile:maximumMenuDepth:)``
///    forgets what the head unit had and plans the whole declared state: every image first, then
///    the screen, the media clock, the menu and the voice commands.
///
/// Notifications come back by the user's names: ``SDLMenuManager/selection(onCommand:)``,
/// ``SDLButtonEvent/map(notification:parameters:screen:)``, ``SDLPendingInteraction/answer(_:)``
/// and ``SDLPendingAlert/answer(response:notifications:)``.
public struct SDLManagers: Sendable {
    public var screen = SDLScreenManager()
    public var menu = SDLMenuManager()
    public var choiceSets: SDLChoiceSetManager
    public var media = SDLMediaManager()
    public var alerts = SDLAlertManager()

    public init(choiceSetCapacity: Int = 500) {
        choiceSets = SDLChoiceSetManager(capacity: choiceSetCapacity)
    }
}
