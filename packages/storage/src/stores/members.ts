/**
 * Members of a team memory server: named bearer tokens, each in one team. A token itself
 * is never stored, only its SHA-256.
 */
export interface MemberStore {
  /**
   * Adds a member holding the token whose SHA-256 (hex) is `tokenHash`. StorageError
   * `conflict` when the name or the token is taken.
   */
  addMember(member: NewMember): Promise<Member>;
  /** Every member, by team, then name. */
  listMembers(): Promise<Member[]>;
  /** Removes a member (their token stops working at once). False when there was none. */
  removeMember(name: string): Promise<boolean>;
  /** The member whose token hashes to `tokenHash`, or undefined. */
  findMember(tokenHash: string): Promise<Member | undefined>;
}

/** A member of a team memory server. */
export interface Member {
  /** Unique on the server; becomes the actor of everything the member writes. */
  name: string;
  /** The one team the member belongs to (`default` unless named). */
  team: string;
  /** `admin` may manage every record of their team, `member` their own. */
  role: 'member' | 'admin';
  /** ISO time the member was added. */
  createdAt: string;
}

export interface NewMember {
  /** Unique on the server (@kiro-learn/team's MEMBER_NAME). */
  name: string;
  /** Default `default`. */
  team?: string;
  /** `member`, or `admin` (may change and delete any record of the team). */
  role: Member['role'];
  /** SHA-256 of the member's token, lower-case hex. */
  tokenHash: string;
}
