import type { Express } from "express";

export interface RegisteredRoute {
  method: string;
  path: string;
}

interface Layer {
  rawPath?: string | string[];
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

const paths = (p: string | string[] | undefined) => (Array.isArray(p) ? p : [p ?? ""]);

/** Every method and path the app registers, nested routers included (for the access tests). */
export function listRoutes(app: Express): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of paths(layer.route.path)) {
          for (const method of Object.keys(layer.route.methods)) {
            if (method !== "_all") routes.push({ method: method.toUpperCase(), path: `${prefix}${path}` });
          }
        }
      } else if (layer.handle?.stack) {
        for (const mount of paths(layer.rawPath)) walk(layer.handle.stack, `${prefix}${mount === "/" ? "" : mount}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, "");
  return routes;
}
