/// The numbers an app's head unit knows its declared ids by, so that a driver's action can be
/// named by the user's id: a menu entry or voice command by its `cmdID` (MOBILE_API.xml
/// AddCommand), a choice of the open interaction by its `choiceID` (PerformInteraction), a soft
/// button by its `softButtonID` (SoftButton; the HMI's `customButtonID`). Built from what the
/// managers last had accepted and what is open now.
public struct SDLDeclaredIDs: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case command, choice, softButton
    }

    /// Menu commands and top-level voice commands: user id → `cmdID`s (two if a menu entry and a
    /// voice command share an id).
    public var commands: [String: Set<Int>] = [:]
    /// The choices of the interaction open now: user id → `choiceID`.
    public var choices: [String: Int] = [:]
    /// The buttons of the alert open now: user id → `softButtonID`. They cover the screen's,
    /// so a name of both is the alert's.
    public var alertButtons: [String: Int] = [:]
    /// The soft buttons the screen shows: user id → `softButtonID`.
    public var screenButtons: [String: Int] = [:]

    public init() {}

    /// The ids of `menu` (menu entries at every level, voice commands), the soft buttons of
    /// `screen`, and the open `interaction` and `alert`, if any.
    public init(menu: SDLMenuState, screen: SDLScreenState, interaction: SDLPendingInteraction?, alert: SDLPendingAlert?) {
        func add(_ entries: [SDLMenuEntry]) {
            for entry in entries {
                if entry.isSubmenu { add(entry.children) } else { commands[entry.id, default: []].insert(entry.sdlID) }
            }
        }
        add(menu.entries)
        for voice in menu.voiceCommands { commands[voice.command.id, default: []].insert(voice.cmdID) }
        for (number, user) in interaction?.choices ?? [:] { choices[user] = number }
        for (number, user) in alert?.buttons ?? [:] { alertButtons[user] = number }
        for (number, reference) in screen.softButtons { screenButtons[reference.id] = number }
    }

    /// The numbers `name` stands for as a `kind`: none when it is not declared, more than one
    /// when it is ambiguous. An open alert's button is found before the screen's.
    public func numbers(of name: String, _ kind: Kind) -> Set<Int> {
        switch kind {
        case .command: commands[name] ?? []
        case .choice: choices[name].map { [$0] } ?? []
        case .softButton: (alertButtons[name] ?? screenButtons[name]).map { [$0] } ?? []
        }
    }

    /// The declared ids of `kind`, sorted: what an error lists as accepted.
    public func names(_ kind: Kind) -> [String] {
        switch kind {
        case .command: commands.keys.sorted()
        case .choice: choices.keys.sorted()
        case .softButton: Set(alertButtons.keys).union(screenButtons.keys).sorted()
        }
    }
}
