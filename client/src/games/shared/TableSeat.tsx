import { Avatar } from "../../ui/Avatar";
import { TimerRing } from "./TimerRing";

/**
 * The parts of a seat that the shared tables (the blackjack table, the Hold'em table) draw alike: a
 * free seat with its Sit button, and a seated player's face with the turn's clock around it.
 */

/**
 * A free seat: its words, and a Sit button while watching (`onSit` null: none). Test ids:
 * `${testPrefix}-seat-${seat}` (with `data-free`) and `${testPrefix}-sit-${seat}`.
 */
export function FreeSeat(props: {
  seat: number;
  testPrefix: string;
  /** the seat's words, such as "Seat 3 · free" */
  label: string;
  className: string;
  onSit: (() => void) | null;
  sitDisabled?: boolean;
}) {
  const { seat, testPrefix, onSit } = props;
  return (
    <div data-testid={`${testPrefix}-seat-${seat}`} data-free="true" className={props.className}>
      <span>{props.label}</span>
      {onSit && (
        <button
          type="button"
          data-testid={`${testPrefix}-sit-${seat}`}
          disabled={props.sitDisabled}
          onClick={onSit}
          className="min-h-8 rounded-lg bg-primary inset-ring-2 inset-ring-primary-edge px-3 text-sm font-semibold text-primary-foreground hover:brightness-110 disabled:opacity-50"
          aria-label={`Sit at seat ${seat}`}
        >
          Sit
        </button>
      )}
    </div>
  );
}

/**
 * The attributes of a seated player's seat, the same at both tables: a labelled group ("Ann (you), seat
 * 3"), marked current while it is to act. Test id `${testPrefix}-seat-${seat}`, with `data-player`,
 * `data-mine` and `data-active`.
 */
export function seatedProps(
  testPrefix: string,
  seat: number,
  player: { playerId: string; username: string },
  mine: boolean,
  active: boolean,
) {
  return {
    "data-testid": `${testPrefix}-seat-${seat}`,
    "data-player": player.playerId,
    "data-mine": mine,
    "data-active": active,
    role: "group",
    "aria-label": `${mine ? `${player.username} (you)` : player.username}, seat ${seat}`,
    "aria-current": active ? ("true" as const) : undefined,
  };
}

/** A seated player's face, `size` pixels square, with the clock's ring around it while the seat is to act (`timerLeft` not null). */
export function SeatAvatar(props: {
  player: { avatarUrl: string | null; username: string; face: string | null };
  size: number;
  /** the share of the turn's time still left (0 to 1), or null when the seat is not to act */
  timerLeft: number | null;
}) {
  const { player, size, timerLeft } = props;
  return (
    <span className="relative shrink-0" style={{ width: size, height: size }}>
      <span className="absolute inset-[4px]">
        <Avatar src={player.avatarUrl} name={player.username} seed={player.face} className="h-full w-full" />
      </span>
      {timerLeft !== null && <TimerRing left={timerLeft} size={size} />}
    </span>
  );
}
