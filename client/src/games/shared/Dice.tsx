import { motion } from "motion/react";

const PIPS: Record<number, [number, number][]> = {
  1: [[1, 1]],
  2: [
    [0, 0],
    [2, 2],
  ],
  3: [
    [0, 0],
    [1, 1],
    [2, 2],
  ],
  4: [
    [0, 0],
    [0, 2],
    [2, 0],
    [2, 2],
  ],
  5: [
    [0, 0],
    [0, 2],
    [1, 1],
    [2, 0],
    [2, 2],
  ],
  6: [
    [0, 0],
    [0, 2],
    [1, 0],
    [1, 2],
    [2, 0],
    [2, 2],
  ],
};

/** A six-sided die showing `face`; it tumbles in each time `rollKey` changes. */
export function Die(props: { face: number | null; rollKey: number; index?: number; size?: number; testId?: string }) {
  const { face, rollKey, index = 0, size = 56, testId } = props;
  return (
    <motion.div
      key={rollKey}
      data-testid={testId}
      data-face={face ?? ""}
      role="img"
      aria-label={face ? `die showing ${face}` : "die"}
      initial={face ? { rotate: -360, scale: 0.4, y: -30 } : false}
      animate={{ rotate: 0, scale: 1, y: 0 }}
      transition={{ delay: index * 0.12, duration: 0.55, ease: "easeOut" }}
      className="grid grid-cols-3 grid-rows-3 rounded-xl bg-white p-2 shadow-lg"
      style={{ width: size, height: size }}
    >
      {face &&
        Array.from({ length: 9 }, (_, cell) => {
          const r = Math.floor(cell / 3);
          const c = cell % 3;
          const on = PIPS[face]!.some(([pr, pc]) => pr === r && pc === c);
          return (
            <span key={cell} className={`m-auto h-2.5 w-2.5 rounded-full ${on ? (face === 1 ? "bg-rose-600" : "bg-slate-900") : ""}`} />
          );
        })}
    </motion.div>
  );
}
