// The client report's top card (ClientReport.island.tsx): the animated score, its label, the date and the counts.
import { useEffect, useState } from "react";
import { bandKey } from "../../src/modules/inspections/bands";
import type { ClientReportPayload } from "../../src/modules/sharing/sharing.schemas";
import { useWords } from "./report-words";

const SCORE_DURATION_MS = 4000;

const easeOutCubic = (t: number) => 1 - (1 - t) ** 3;

/** Counts up to the score over 4 s, eased; a reader who asks for less motion gets the number at once. */
const still = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

function useCountUp(target: number): number {
  // With less motion the first render already shows the score: it never counts.
  const [value, setValue] = useState(() => (still() ? target : 0));
  useEffect(() => {
    if (still()) {
      setValue(target);
      return;
    }
    let frame = 0;
    const start = performance.now();
    const step = (now: number) => {
      const t = Math.min(1, (now - start) / SCORE_DURATION_MS);
      setValue(Math.round(target * easeOutCubic(t)));
      if (t < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [target]);
  return value;
}

function ScoreDial({ score, label }: { score: number; label: string }) {
  const { t } = useWords();
  const shown = useCountUp(score);
  const r = 52;
  const c = 2 * Math.PI * r;
  return (
    <figure
      className="dial relative m-0 h-48 w-48 flex-none md:h-56 md:w-56"
      role="img"
      aria-label={t("report.dial.label", { score, band: label })}
      data-dial
      data-value={score}
      data-duration={SCORE_DURATION_MS}
      data-dial-done={shown === score ? "1" : "0"}
    >
      <svg viewBox="0 0 120 120" aria-hidden="true" className="h-full w-full -rotate-90">
        <circle cx="60" cy="60" r={r} fill="none" strokeWidth="10" className="stroke-green-800/15" />
        <circle
          cx="60"
          cy="60"
          r={r}
          fill="none"
          strokeWidth="10"
          strokeLinecap="round"
          className="stroke-gold-400"
          strokeDasharray={c.toFixed(2)}
          strokeDashoffset={(c * (1 - shown / 100)).toFixed(2)}
        />
      </svg>
      <span
        className="absolute inset-0 flex flex-col items-center justify-center font-serif font-bold leading-none text-green-900"
        aria-hidden="true"
      >
        <span className="text-5xl md:text-6xl" data-dial-number>
          {shown}
        </span>
        <small className="mt-1 font-sans text-xs font-semibold uppercase tracking-wide text-green-700">
          {t("report.dial.outOf")}
        </small>
      </span>
    </figure>
  );
}

interface ScoreCardProps {
  score: number;
  /** The band's name in the page's language. */
  label: string;
  /** The band's English label: the key of its meaning. */
  band: string;
  /** When the report was made. */
  createdAt: string;
  summary: ClientReportPayload["report"]["reportData"]["summary"];
}

export function ScoreCard({ score, label, band, createdAt, summary }: ScoreCardProps) {
  const { t, lang, label: name } = useWords();
  return (
    <div className="card flex flex-col items-center gap-8 md:flex-row">
      <ScoreDial score={score} label={label} />
      <div className="flex-1 text-center md:text-left">
        <p className="font-serif text-3xl font-bold text-green-900" data-report-label>
          {label}
        </p>
        {/* What the band means, and the key to all five (docs/decisions.md#66). */}
        <p className="mt-1 text-ink/85" data-band-meaning>
          {name("scoring.meaning", band)}
        </p>
        <details className="disclosure mt-2 text-sm" data-band-key>
          <summary className="link cursor-pointer">{t("report.bandKey.title")}</summary>
          <dl className="mt-2 space-y-1">
            {bandKey().map((b) => (
              <div key={b.label}>
                <dt className="inline font-semibold">
                  {t("report.bandKey.band", {
                    band: name("scoring.band", b.label),
                    min: b.min,
                    max: b.max,
                    floor: b.max + 1,
                  })}
                </dt>{" "}
                <dd className="inline">{name("scoring.meaning", b.label)}</dd>
              </div>
            ))}
          </dl>
        </details>
        <p className="mt-2 text-sm text-ink/80">
          {t("report.reportOf", {
            date: new Date(createdAt).toLocaleDateString(lang, { year: "numeric", month: "long", day: "numeric" }),
          })}
        </p>
        <dl className="mt-5 grid grid-cols-3 gap-3 text-center" data-summary>
          <div className="rounded-xl bg-band-red/10 p-3">
            <dt className="text-xs font-semibold uppercase text-band-red">{t("scoring.urgency.high")}</dt>
            <dd className="font-serif text-2xl font-bold">{summary.highPriority}</dd>
          </div>
          <div className="rounded-xl bg-gold-300/30 p-3">
            <dt className="text-xs font-semibold uppercase text-green-950">{t("scoring.urgency.medium")}</dt>
            <dd className="font-serif text-2xl font-bold">{summary.mediumPriority}</dd>
          </div>
          <div className="rounded-xl bg-green-900/10 p-3">
            <dt className="text-xs font-semibold uppercase text-green-800">{t("scoring.urgency.low")}</dt>
            <dd className="font-serif text-2xl font-bold">{summary.lowPriority}</dd>
          </div>
        </dl>
      </div>
    </div>
  );
}
