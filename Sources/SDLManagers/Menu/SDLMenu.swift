/// A declared menu (the `menu` resource): the tree and its `MenuLayout` (LIST or TILES, RPC spec
/// 6.0+), which applies to the main menu (SetGlobalProperties `menuLayout`) and to every
/// submenu (AddSubMenu `menuLayout`). In JSON the tree is the member `menu`.
public struct SDLMenu: Sendable, Hashable, Codable {
    public var cells: [SDLMenuCell]
    public var layout: String?

    /// The values of MOBILE_API.xml `MenuLayout`.
    public static let layouts: Set<String> = ["LIST", "TILES"]
    /// The most cells one menu may hold (all levels together); bounds the plan and the id use.
    public static let maximumCells = 1000

    public init(cells: [SDLMenuCell], layout: String? = nil) {
        self.cells = cells
        self.layout = layout
    }

    private enum CodingKeys: String, CodingKey {
        case cells = "menu"
        case layout
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cells = try container.decodeIfPresent([SDLMenuCell].self, forKey: .cells) ?? []
        layout = try container.decodeIfPresent(String.self, forKey: .layout)
    }
}
