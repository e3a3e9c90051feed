import { createElement, type ComponentType, type ReactElement, type ReactNode, useEffect } from "react";
import { createRoot } from "react-dom/client";

/** `queries`: the island uses react-query, whose provider (11 KB gzip) then loads with it, and only then. */
type IslandModule = { default: ComponentType<Record<string, unknown>>; queries?: boolean };

/**
 * Marks the island hydrated once React has committed it and run its effects: a parent's effects run after its
 * children's, so whatever an island sets up in an effect (document listeners, say) is in place by then. Browser
 * tests wait for this attribute before they interact.
 */
function Hydrated({ element, children }: { element: HTMLElement; children?: ReactNode }) {
  useEffect(() => {
    element.dataset.islandStatus = "hydrated";
  }, [element]);
  return children;
}

// Each island is its own chunk, loaded only when its marker is on the page.
const modules = import.meta.glob<IslandModule>("./**/*.island.tsx");

async function mount(element: HTMLElement): Promise<void> {
  const name = element.dataset.island;
  const load = name ? modules[`./${name}.island.tsx`] : undefined;
  if (!load) {
    console.error(`Unknown island: ${name}`);
    element.dataset.islandStatus = "error";
    return;
  }
  const props = JSON.parse(element.dataset.props || "{}") as Record<string, unknown>;
  const { default: Island, queries } = await load();
  let tree: ReactElement = createElement(Island, props);
  if (queries) {
    const { IslandProviders } = await import("./ui/providers");
    tree = createElement(IslandProviders, null, tree);
  }
  element.replaceChildren();
  createRoot(element).render(createElement(Hydrated, { element }, tree));
}

document.querySelectorAll<HTMLElement>("[data-island]").forEach((element) => {
  mount(element).catch((error) => {
    console.error(error);
    element.dataset.islandStatus = "error";
  });
});
