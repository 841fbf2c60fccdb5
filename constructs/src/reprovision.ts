export { Reprovision } from '../../src/domain/reprovision';
