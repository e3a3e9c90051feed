// The admin pages' script (views/layouts/main.ejs loads it when the page has the admin shell): htmx,
// the phone menu, the details dialog, Logout and the session-expiry notice. Marketing pages never load it.
import { adminShell } from "./site/admin";

adminShell();
