/** One line of the RTP table (docs/rtp.md, `npm run rtp`). */
export interface RtpRow {
  game: string;
  /** the bet type or variant; "" when the game has one */
  bet: string;
  /** exact return to player as a fraction (0.99 = 99 %) */
  rtp: number;
  /** the value game-rules.md gives, as a fraction, when it gives one */
  reference?: number;
  /** how it was computed and under which assumptions (e.g. "optimal play, enumeration of all hands") */
  method: string;
}
