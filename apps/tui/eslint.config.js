import base from "@gauntlet/eslint-config";
import reactHooks from "eslint-plugin-react-hooks";

export default [...base, reactHooks.configs.flat.recommended];
