import reactHooks from "eslint-plugin-react-hooks";

import base from "@gauntlet/eslint-config";

export default [...base, reactHooks.configs.flat.recommended];
