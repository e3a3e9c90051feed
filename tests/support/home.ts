import type { TestContext } from "./context.js";

/** Signs a supertest agent in to My Home as this e-mail: a `haven_home` cookie of a real session row. */
export async function signInHome(ctx: TestContext, email: string, agent = ctx.agent()) {
  const { token } = await ctx.container.homeAuth.createSession(email, { method: "link" });
  agent.jar.setCookie(`haven_home=${token}; Path=/; HttpOnly; SameSite=Lax`, "127.0.0.1", "/");
  return agent;
}
