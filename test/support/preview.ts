// The preview tests' shared config folder: one workflow (order-shipped) with one email step whose
// HTML is a file (email.html) and a preview payload, so a test says only what the email holds.
import { createWorkspace, type Workspace } from "./cli.js";

export const ONE_EMAIL_CONFIG = `version: 1
workflows:
  - identifier: order-shipped
    preview: { payload: { orderId: A-1 } }
    steps:
      - name: email
        type: email
        template: { subject: "Order {{orderId}}", content: { file: email.html }, contentType: customHtml }
`;

/** A throwaway config folder holding ONE_EMAIL_CONFIG and `email` as email.html. */
export function oneEmailWorkspace(email: string): Promise<Workspace> {
  return createWorkspace({ "notiform.yaml": ONE_EMAIL_CONFIG, "email.html": email });
}
