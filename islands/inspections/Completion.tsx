import { cardId } from "./EntryCard";
import type { Completion } from "./model";

/** How many blocking items the bar names before it says 'and N more'. */
const NAMED_BLOCKERS = 3;

const itemName = (e: { categoryName: string; subcategoryName: string }) => `${e.categoryName} › ${e.subcategoryName}`;

/** Brings an item's card into view once its section has rendered, and focuses its first score (or its notes). */
export function openSlot(key: string) {
  requestAnimationFrame(() => {
    const card = document.getElementById(cardId(key));
    card?.scrollIntoView({ block: "center" });
    card?.querySelector<HTMLElement>(".score-btn, textarea")?.focus({ preventScroll: true });
  });
}

/**
 * The sticky bar's completion row: 'Complete Inspection' when the server would accept it;
 * otherwise the button stays visible but unusable and the bar says why, naming and linking the items.
 */
export function CompletionBar({
  completion,
  onComplete,
  onShow,
}: {
  completion: Completion;
  onComplete: () => void;
  onShow: (slot: { key: string; categoryName: string }) => void;
}) {
  const { blockers, noScore, ready } = completion;
  const named = blockers.slice(0, NAMED_BLOCKERS);
  return (
    <div className="completion-row" data-testid="completion-bar">
      {!ready && (
        <p className="completion-why text-sm" id="completion-why" data-testid="completion-why">
          {noScore ? (
            "Score at least one item to complete the inspection."
          ) : (
            <>
              {blockers.length === 1
                ? "This item has notes or photos but no score: "
                : `${blockers.length} items have notes or photos but no score: `}
              {named.map((e, i) => (
                <span key={e.key}>
                  {i > 0 && ", "}
                  <a
                    className="completion-link"
                    href={`#${cardId(e.key)}`}
                    data-testid="completion-blocker"
                    onClick={(event) => {
                      event.preventDefault();
                      onShow(e);
                    }}
                  >
                    {itemName(e)}
                  </a>
                </span>
              ))}
              {blockers.length > named.length && ` and ${blockers.length - named.length} more`}.
            </>
          )}
        </p>
      )}
      <button
        type="button"
        className="btn btn-gold btn-sm shrink-0"
        data-testid="complete-inspection"
        aria-disabled={!ready}
        aria-describedby={ready ? undefined : "completion-why"}
        onClick={() => ready && onComplete()}
      >
        Complete<span className="wide-only"> Inspection</span>
      </button>
    </div>
  );
}
